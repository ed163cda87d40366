#pragma once

#include <QString>

namespace semscope::core {

// The URL as typed, with the password (everything between the first ':' of the user info and the
// last '@', or the whole user info when it has no ':') replaced by "***". Works on text that QUrl refuses too: a malformed URL may still carry
// a password, and passwords are often base64, with '/', '+' and '=' in them.
QString redactedUrl(const QString &url);

} // namespace semscope::core
