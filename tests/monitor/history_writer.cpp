// A second process for tst_historystore: writes `count` events (one transaction each, the way a
// watcher writes them) and a hold of holder `tag` to the history at `path`, then exits 0 — or 1 when
// the history was off or any write failed.
#include "monitor/HistoryStore.h"

#include <QCoreApplication>
#include <QDateTime>
#include <cstdio>

using namespace semscope;

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() != 4) {
        std::fprintf(stderr, "usage: history_writer PATH TAG COUNT\n");
        return 2;
    }
    monitor::HistoryStore history(args.at(1));
    if (!history.isAvailable()) {
        std::fprintf(stderr, "%s\n", qPrintable(history.warning()));
        return 1;
    }
    const QString tag = args.at(2);
    const int count = args.at(3).toInt();
    core::SemaphoreRef ref;
    ref.kind = core::Kind::Slots;
    ref.name = QStringLiteral("shared");
    int failed = 0;
    for (int i = 0; i < count; ++i) {
        monitor::HolderEvent e;
        e.atMs = QDateTime::currentMSecsSinceEpoch();
        e.event = monitor::events::Acquired;
        e.ref = ref;
        e.holder = tag;
        e.token = i;
        if (!history.record(QStringLiteral("redis://test"), {e}))
            ++failed;
        // Both processes also record what they saw of the same semaphore, as `show` does.
        if (history.recordSeen(QStringLiteral("redis://test"), ref, {tag, QStringLiteral("common")}, e.atMs)
                .size() != 2)
            ++failed;
    }
    std::printf("%d failed\n", failed);
    return failed == 0 ? 0 : 1;
}
