#include "RawKeysLoader.h"

namespace semscope::model {

using namespace semscope::core;

void RawKeysLoader::read(ConnectionController *controller, const SemaphoreRef &ref, QObject *context,
                         Callback<RawKeys> done) {
    RawKeys noStore;
    noStore.error = atEndpoint(controller->config().endpoint(), QStringLiteral("not connected"));
    const QString endpoint = controller->config().endpoint();
    controller->call<RawKeys>(
        [ref, endpoint](SemaphoreStore &store, Callback<RawKeys> cb) {
            if (auto *source = dynamic_cast<RawKeySource *>(&store)) {
                source->readRawKeys(ref, [cb, endpoint](RawKeys keys) {
                    if (!keys.ok)
                        keys.error = atEndpoint(endpoint, keys.error);
                    cb(keys);
                });
                return;
            }
            RawKeys none;
            none.error = QStringLiteral("this connection cannot show raw keys");
            cb(none);
        },
        noStore, context, std::move(done));
}

} // namespace semscope::model
