#include "TestMain.h"
#include "core/ProfileStore.h"

#include <QTemporaryDir>
#include <QTest>

using namespace semscope::core;

class TestProfileStore : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() {
        QVERIFY(m_dir.isValid());
        m_settings =
            std::make_unique<QSettings>(m_dir.filePath(QStringLiteral("profiles.ini")), QSettings::IniFormat);
        m_settings->clear();
    }

    void missingProfileIsEmpty() {
        ProfileStore store(m_settings.get());
        QVERIFY(!store.load(QStringLiteral("redis://127.0.0.1:6379/0"), Kind::Fair, QStringLiteral("sem")));
    }

    void roundTripSurvivesReopen() {
        const QString endpoint = QStringLiteral("redis://127.0.0.1:6379/0");
        const QString name = QStringLiteral("a/b|c {x}"); // separators QSettings would otherwise split on
        {
            ProfileStore store(m_settings.get());
            SemaphoreProfile p;
            p.limit = 5;
            p.timeoutMs = 10000;
            p.scoreUnit = ScoreUnit::Seconds;
            store.save(endpoint, Kind::Fair, name, p);
        }
        m_settings =
            std::make_unique<QSettings>(m_dir.filePath(QStringLiteral("profiles.ini")), QSettings::IniFormat);
        ProfileStore store(m_settings.get());
        const auto loaded = store.load(endpoint, Kind::Fair, name);
        QVERIFY(loaded);
        QCOMPARE(loaded->limit, std::optional<qint64>(5));
        QCOMPARE(loaded->timeoutMs, std::optional<qint64>(10000));
        QCOMPARE(loaded->scoreUnit, ScoreUnit::Seconds);
        QVERIFY(!loaded->inferred);
    }

    void keyedByEndpointKindAndName() {
        ProfileStore store(m_settings.get());
        SemaphoreProfile p;
        p.limit = 3;
        store.save(QStringLiteral("redis://127.0.0.1:6379/0"), Kind::Zset, QStringLiteral("z"), p);
        QVERIFY(store.load(QStringLiteral("redis://127.0.0.1:6379/0"), Kind::Zset, QStringLiteral("z")));
        QVERIFY(!store.load(QStringLiteral("redis://127.0.0.1:6380/0"), Kind::Zset, QStringLiteral("z")));
        QVERIFY(!store.load(QStringLiteral("redis://127.0.0.1:6379/0"), Kind::Fair, QStringLiteral("z")));
        QVERIFY(!store.load(QStringLiteral("redis://127.0.0.1:6379/0"), Kind::Zset, QStringLiteral("y")));
        store.remove(QStringLiteral("redis://127.0.0.1:6379/0"), Kind::Zset, QStringLiteral("z"));
        QVERIFY(!store.load(QStringLiteral("redis://127.0.0.1:6379/0"), Kind::Zset, QStringLiteral("z")));
    }

    // Issue 14 item 11: provenance is kept per value. A limit the operator entered stays the
    // operator's when the timeout and unit beside it are guesses, and the other way round.
    void resolveKeepsProvenancePerValue() {
        ProfileStore store(m_settings.get());
        const QString endpoint = QStringLiteral("redis://h:1/0");
        SemaphoreRef ref;
        ref.kind = Kind::NodeSemaphore;
        ref.name = QStringLiteral("uploads");
        ref.profile.scoreUnit = ScoreUnit::Milliseconds;
        ref.profile.unitInferred = true;
        ref.profile.timeoutMs = 10000;
        ref.profile.timeoutInferred = true;
        // Nothing stored: the guesses are used as they are.
        SemaphoreProfile resolved = store.resolve(endpoint, ref);
        QVERIFY(resolved.unitInferred && resolved.timeoutInferred && !resolved.inferred);
        // The operator entered a limit only (set-limit): the limit is theirs, the rest still guessed.
        SemaphoreProfile entered;
        entered.limit = 3;
        store.save(endpoint, ref.kind, ref.name, entered);
        resolved = store.resolve(endpoint, ref);
        QCOMPARE(resolved.limit, std::optional<qint64>(3));
        QVERIFY(!resolved.inferred);
        QCOMPARE(resolved.timeoutMs, std::optional<qint64>(10000));
        QVERIFY(resolved.timeoutInferred);
        QCOMPARE(resolved.scoreUnit, ScoreUnit::Milliseconds);
        QVERIFY(resolved.unitInferred);
        QVERIFY(resolved.anyInferred());
        // Everything entered: nothing is a guess any more.
        entered.scoreUnit = ScoreUnit::Seconds;
        entered.timeoutMs = 5000;
        store.save(endpoint, ref.kind, ref.name, entered);
        resolved = store.resolve(endpoint, ref);
        QCOMPARE(resolved.scoreUnit, ScoreUnit::Seconds);
        QVERIFY(!resolved.anyInferred());
        // A guessed limit, saved so, comes back guessed; the entered values beside it do not.
        entered.inferred = true;
        store.save(endpoint, ref.kind, ref.name, entered);
        resolved = store.resolve(endpoint, ref);
        QVERIFY(resolved.inferred && !resolved.timeoutInferred && !resolved.unitInferred);
    }

    // Discovery asks which semaphores the operator named on one endpoint: every stored profile
    // there, with kind, exact name (separators and '%' included) and values; other endpoints apart.
    void namedListsTheProfilesOfOneEndpoint() {
        const QString endpoint = QStringLiteral("redis://127.0.0.1:6379/0");
        const QString odd = QStringLiteral("a/b%2F|c {x}");
        {
            ProfileStore store(m_settings.get());
            SemaphoreProfile p;
            p.limit = 7;
            store.save(endpoint, Kind::RedissonSemaphore, odd, p);
            p.limit = 2;
            store.save(endpoint, Kind::Fair, QStringLiteral("f"), p);
            store.save(QStringLiteral("redis://elsewhere:6379/0"), Kind::Zset, QStringLiteral("z"), p);
        }
        m_settings =
            std::make_unique<QSettings>(m_dir.filePath(QStringLiteral("profiles.ini")), QSettings::IniFormat);
        ProfileStore store(m_settings.get());
        QList<SemaphoreRef> named = store.named(endpoint);
        std::sort(named.begin(), named.end(),
                  [](const SemaphoreRef &a, const SemaphoreRef &b) { return a.name < b.name; });
        QCOMPARE(named.size(), 2);
        QCOMPARE(named.at(0).kind, Kind::RedissonSemaphore);
        QCOMPARE(named.at(0).name, odd);
        QCOMPARE(named.at(0).profile.limit, std::optional<qint64>(7));
        QCOMPARE(named.at(1).kind, Kind::Fair);
        QCOMPARE(named.at(1).name, QStringLiteral("f"));
        QVERIFY(store.named(QStringLiteral("redis://nowhere:1/0")).isEmpty());
        store.remove(endpoint, Kind::Fair, QStringLiteral("f"));
        QCOMPARE(store.named(endpoint).size(), 1);
    }

    void unitNames() {
        for (ScoreUnit u : {ScoreUnit::Auto, ScoreUnit::Seconds, ScoreUnit::Milliseconds})
            QCOMPARE(ProfileStore::scoreUnitFromName(ProfileStore::scoreUnitName(u)), std::optional(u));
        QVERIFY(!ProfileStore::scoreUnitFromName(QStringLiteral("fortnights")));
    }

    // A fair semaphore's outer lock key is kept with its profile; unset, none is stored (the kind
    // then checks both names in use).
    void outerLockKeyRoundTrips() {
        ProfileStore store(m_settings.get());
        const QString endpoint = QStringLiteral("redis://h:1/0");
        SemaphoreProfile p;
        p.outerLockKey = QStringLiteral("locks/sem");
        store.save(endpoint, Kind::Fair, QStringLiteral("sem"), p);
        QCOMPARE(store.load(endpoint, Kind::Fair, QStringLiteral("sem"))->outerLockKey, p.outerLockKey);
        SemaphoreRef ref;
        ref.kind = Kind::Fair;
        ref.name = QStringLiteral("sem");
        QCOMPARE(store.resolve(endpoint, ref).outerLockKey, p.outerLockKey);
        store.save(endpoint, Kind::Fair, QStringLiteral("other"), SemaphoreProfile{});
        QVERIFY(store.load(endpoint, Kind::Fair, QStringLiteral("other"))->outerLockKey.isEmpty());
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<QSettings> m_settings;
};

SEMSCOPE_TEST_GUILESS_MAIN(TestProfileStore)
#include "tst_profilestore.moc"
