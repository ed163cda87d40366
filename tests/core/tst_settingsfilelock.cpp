#include "TestMain.h"
#include "core/SettingsFileLock.h"

#include <QTemporaryDir>
#include <QtTest>
#include <atomic>
#include <thread>
#include <vector>

using namespace semscope;

class TestSettingsFileLock : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Many writers of one settings file, each holding the lock a while, for longer in all than a
    // single waiter's patience used to be (10 s of exponential back-off): every one must get its
    // turn, one at a time. A writer that gave up went on unlocked and could lose another's profile.
    void everyWriterGetsItsTurnOneAtATime() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString file = dir.filePath(QStringLiteral("profiles.conf"));
        constexpr int writers = 28;
        constexpr int holdMs = 400; // 11.2 s of holding in all
        std::atomic<int> inside{0};
        std::atomic<int> mostInside{0};
        std::atomic<int> locked{0};
        std::vector<std::thread> threads;
        for (int i = 0; i < writers; ++i) {
            threads.emplace_back([&] {
                const core::SettingsFileLock lock(file);
                if (!lock.isLocked())
                    return;
                ++locked;
                const int now = ++inside;
                int seen = mostInside.load();
                while (now > seen && !mostInside.compare_exchange_weak(seen, now)) {
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(holdMs));
                --inside;
            });
        }
        for (std::thread &t : threads)
            t.join();
        QCOMPARE(locked.load(), writers);
        QCOMPARE(mostInside.load(), 1);
    }
};

SEMSCOPE_TEST_GUILESS_MAIN(TestSettingsFileLock)
#include "tst_settingsfilelock.moc"
