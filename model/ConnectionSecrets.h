#pragma once

#include "ConnectionConfig.h"
#include "SecretStore.h"

#include <functional>
#include <optional>

namespace semscope::model {

// The secrets of one connection in the SecretStore, in one place for saving, connecting and
// removing: the data password (or Consul token) under the connection's id, and for a Sentinel
// connection the sentinels' own password under ConnectionConfig::sentinelSecretKey(id). Neither
// ever goes to the settings file.

// Keeps the secrets `config` carries in memory: in the keyring when `remember`, and for this session
// when there is no keyring (so a reconnect does not ask again). Empty secrets are not written.
// `previous` (the connection as saved before; nullptr for a new one): a Sentinel password the
// connection no longer has (its URL is not a Sentinel one any more) is removed from the store.
void keepConnectionSecrets(SecretStore &store, const ConnectionConfig &config, bool remember,
                           const ConnectionConfig *previous = nullptr);

// Both secrets the connection needs, read asynchronously: `done(data, sentinel)` gets each one, or
// nullopt for one the connection needs but the store does not have (the caller asks the operator).
// A secret the connection does not need comes back as an empty string.
void readConnectionSecrets(
    SecretStore &store, const ConnectionConfig &config,
    std::function<void(std::optional<QString> data, std::optional<QString> sentinel)> done);

// Removes both (a removed connection leaves nothing behind in the keyring).
void forgetConnectionSecrets(SecretStore &store, const QString &connectionId);

} // namespace semscope::model
