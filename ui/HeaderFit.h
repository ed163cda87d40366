#pragma once

#include <QMap>

class QHeaderView;

namespace semscope::ui {

// Gives every column at least the width its title needs, sort arrow included, so no header is
// ever cut off ("Soonest expiry", not "oonest expiry"); a wider preferred width is kept. Columns
// that do not fit then scroll sideways instead of being squeezed.
void fitHeaderSections(QHeaderView *header, const QMap<int, int> &preferred = {});

} // namespace semscope::ui
