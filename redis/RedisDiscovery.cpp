#include "RedisDiscovery.h"

#include "kinds/KindReplies.h"
#include "redis/KindRecognition.h"
#include "topology/HashSlot.h"
#include "topology/RedisTopology.h"

#include <QElapsedTimer>
#include <QHash>
#include <QLoggingCategory>
#include <QPointer>
#include <QSet>
#include <algorithm>
#include <map>
#include <memory>

namespace semscope::redis {

// "semscope.redis.discovery": where a walk's time goes (SCAN pages, key samples, recognition), at
// debug level, off by default. QT_LOGGING_RULES="semscope.redis.discovery.debug=true" to measure.
Q_LOGGING_CATEGORY(lcDiscovery, "semscope.redis.discovery", QtWarningMsg)

namespace {

// How far a SCAN is, from its cursor: Redis walks the buckets in reverse-binary order (it increments
// the cursor's bits from the top), so the cursor with its bits reversed, over 2^64, is the share of
// the table's buckets visited, whatever MATCH or TYPE keep of them. Approximate while the table
// grows or shrinks (the walk then covers some buckets twice), exact otherwise.
double cursorShare(quint64 cursor) {
    quint64 reversed = 0;
    for (int bit = 0; bit < 64; ++bit) {
        reversed = (reversed << 1) | (cursor & 1);
        cursor >>= 1;
    }
    return double(reversed) / 18446744073709551616.0; // 2^64
}

// Whether SCAN runs with a pattern, and so returns only the keys that match it.
bool scansMatchesOnly(const core::DiscoverRequest &request) {
    return !request.match.isEmpty() && request.match != QLatin1String("*");
}

// Sample batches out at once per walk.
constexpr int kBatchesInFlight = 4;
// SCAN pages allowed before the walk is declared endless: generous (COUNT is only a hint, MATCH
// leaves pages empty, a table that shrank has more buckets than keys), yet finite when a server
// keeps inventing cursors.
constexpr qint64 kScanPagesBase = 1000;
constexpr qint64 kScanPagesPerBatchOfKeys = 16;

// State of one discovery walk, kept alive by the callbacks that still refer to it.
struct DiscoveryJob : std::enable_shared_from_this<DiscoveryJob> {
    RedisCommands &conn; // the node whose keyspace is walked
    // Where key samples are read. On a Cluster it is the topology (or its replica reads), used for
    // keys read one slot per script: a key no node script could read (see sampleByNode).
    RedisCommands &sampler;
    // Cluster: the connection that reads the keys of `slot` in one script with the batch's other
    // keys of the same node (the master the slot map names, or the replica chosen to read it);
    // nullptr when the map names none. Unset: a batch is one script through `sampler`.
    std::function<RedisConnection *(int slot)> nodeOfSlot;
    core::DiscoverRequest request;
    core::Cancellation cancel;
    core::Callback<core::DiscoverProgress> progress;
    core::Callback<core::DiscoverResult> done;
    LuaScript sampleScript = LuaScript::fromResource(QStringLiteral("discovery_sample"));

    qint64 serverNowAtStart = 0; // Redis TIME when the walk began
    QElapsedTimer sinceStart;
    qint64 scanned = 0;
    qint64 total = -1;
    double walked = 0; // the share of the keyspace's buckets the names pages have walked
    // base name -> keys to sample (candidates seen by SCAN and their companions).
    std::map<QByteArray, QSet<QByteArray>> groups;
    QSet<QByteArray> redissonChannelNames;   // N of every redisson_sc:{N} with subscribers
    QHash<QByteArray, core::Kind> namedKeys; // keys the operator's profiles name (request.known)
    QList<core::DiscoveredSemaphore> found;
    QSet<QByteArray> cursorsSeen; // a cursor coming back means the walk would never end
    qint64 pages = 0;
    std::vector<QList<QByteArray>> batches;
    size_t nextBatch = 0;
    int inFlight = 0;        // batches sent whose samples are not recognised yet
    bool namesEnded = false; // the names page with cursor 0 came back
    bool finished = false;
    // Timing for lcDiscovery: when the SCAN walk ended, sample scripts sent, time in recognition.
    QString label; // the node walked, for the log
    qint64 scanEndMs = -1;
    qint64 sampleScripts = 0;
    qint64 nodeScriptFallbacks = 0;
    qint64 recognitionNs = 0;

    DiscoveryJob(RedisCommands &c, RedisCommands &s, core::DiscoverRequest r, core::Cancellation cn,
                 core::Callback<core::DiscoverProgress> p, core::Callback<core::DiscoverResult> d)
        : conn(c)
        , sampler(s)
        , request(std::move(r))
        , cancel(std::move(cn))
        , progress(std::move(p))
        , done(std::move(d)) {}

    void finish(bool ok, const QString &error = {}) {
        if (finished)
            return;
        finished = true;
        qCDebug(lcDiscovery).nospace()
            << label << ": scan " << scanEndMs << " ms, samples+recognition "
            << (sinceStart.elapsed() - scanEndMs) << " ms (" << sampleScripts << " scripts, "
            << nodeScriptFallbacks << " node scripts read again per slot, recognition "
            << recognitionNs / 1000000 << " ms), " << found.size() << " found";
        core::DiscoverResult result;
        result.ok = ok;
        result.cancelled = cancel.isCancelled();
        result.error = error;
        result.semaphores = found;
        result.scannedKeys = scanned;
        result.scannedAreMatches = scansMatchesOnly(request);
        done(result);
    }

    bool stopIfCancelled() {
        if (!cancel.isCancelled())
            return false;
        finish(false, QStringLiteral("cancelled"));
        return true;
    }

    void report(const QList<core::DiscoveredSemaphore> &newlyFound) {
        if (!progress)
            return;
        core::DiscoverProgress p;
        p.scannedKeys = scanned;
        p.totalKeys = total;
        p.walked = walked;
        p.scannedAreMatches = scansMatchesOnly(request);
        p.found = newlyFound;
        progress(p);
    }

    void addKey(const QByteArray &base, const QByteArray &key) {
        if (!base.isEmpty())
            groups[base].insert(key);
    }

    void start() {
        // Redisson RSemaphores are bare integer strings: only a profile naming one, or its channel
        // while clients wait on it, tells it apart from any other counter (KindRecognition.cpp).
        // A profile also decides between the ZSET layouts that the data alone can leave open (zset or
        // node redis-semaphore: a client that sets no key TTL, scores that are all past).
        for (const core::SemaphoreRef &ref : std::as_const(request.known)) {
            if (ref.kind == core::Kind::RedissonSemaphore ||
                ref.kind == core::Kind::RedissonPermitExpirable || ref.kind == core::Kind::Zset)
                namedKeys.insert(ref.name.toUtf8(), ref.kind);
            else if (ref.kind == core::Kind::NodeSemaphore)
                namedKeys.insert(nodeSemaphoreKey(ref.name), ref.kind);
        }
        // DBSIZE for the progress total; the channels with subscribers, classic and sharded (Redisson
        // in cluster mode uses SPUBLISH/SSUBSCRIBE; a server without sharded pub/sub answers an
        // error, which only means there are none).
        auto self = shared_from_this();
        sinceStart.start();
        conn.pipeline({{"DBSIZE"},
                       {"PUBSUB", "CHANNELS", "redisson_sc:*"},
                       {"TIME"},
                       {"PUBSUB", "SHARDCHANNELS", "redisson_sc:*"}},
                      [self](const QList<RedisReply> &replies) {
                          if (replies.value(0).isTransportError()) {
                              self->finish(false,
                                           kinds::failureText(QStringLiteral("discovery"), replies.value(0)));
                              return;
                          }
                          self->total = replies.value(0).toInteger().value_or(-1);
                          const RedisReply &time = replies.value(2);
                          self->serverNowAtStart = kinds::integerAt(time, 0).value_or(0) * 1000 +
                                                   kinds::integerAt(time, 1).value_or(0) / 1000;
                          for (int list : {1, 3}) {
                              if (replies.value(list).isError())
                                  continue;
                              for (const RedisReply &ch : replies.value(list).elements) {
                                  // prefixName("redisson_sc", N) is ":{N}", or ":N" when N has
                                  // braces itself: "{x}" may stand for x or for {x}; keep both.
                                  const QByteArray n = ch.str.mid(int(qstrlen("redisson_sc:")));
                                  if (!n.isEmpty())
                                      self->redissonChannelNames.insert(n);
                                  if (n.size() > 2 && n.startsWith('{') && n.endsWith('}'))
                                      self->redissonChannelNames.insert(n.mid(1, n.size() - 2));
                              }
                          }
                          self->scanPage("0");
                      });
    }

    // One page of the walk is three SCANs of the same cursor, sent together: the key names, then
    // the ZSETs and the hashes among them (SCAN's TYPE filter). Only those two types make a key a
    // candidate whatever its name (a plain ZSET semaphore, a Redisson lock hash); every other
    // layout is told by its name, and its samples say its type. The server filters in C, which
    // costs it far less than a TYPE per key (a command each, or a call from a script each): with a
    // million keys the types were most of a walk's cost. The filtered SCANs visit the same buckets
    // as the plain one (Redis 7.0 filters after collecting a page; a server that filters while
    // collecting walks further for the same COUNT, never less), so together the pages type every
    // ZSET and hash the names pages list. A resharding does not get in the way either: SCAN reads
    // the node's own keyspace, including keys moved into a slot it is still importing.
    void scanPage(const QByteArray &cursor) {
        if (stopIfCancelled())
            return;
        auto self = shared_from_this();
        const QByteArray match = request.match.isEmpty() ? QByteArray("*") : request.match.toUtf8();
        const QByteArray count = QByteArray::number(std::max(10, request.batch));
        conn.command({"SCAN", cursor, "MATCH", match, "COUNT", count},
                     [self](const RedisReply &reply) { self->onNamesPage(reply); });
        conn.command({"SCAN", cursor, "MATCH", match, "COUNT", count, "TYPE", "zset"},
                     [self](const RedisReply &reply) { self->onTypedPage(reply, "zset", false); });
        conn.command({"SCAN", cursor, "MATCH", match, "COUNT", count, "TYPE", "hash"},
                     [self](const RedisReply &reply) { self->onTypedPage(reply, "hash", true); });
    }

    static bool isScanPage(const RedisReply &reply) {
        return !reply.isError() && reply.isArray() && reply.elements.size() >= 2 &&
               reply.elements.at(1).isArray();
    }

    void onNamesPage(const RedisReply &reply) {
        if (finished)
            return;
        if (!isScanPage(reply)) {
            finish(false, kinds::failureText(QStringLiteral("SCAN"), reply));
            return;
        }
        const QByteArray next = reply.elements.at(0).str;
        if (const QString endless = checkCursor(next); !endless.isEmpty()) {
            finish(false, endless);
            return;
        }
        namesEnded = next == "0";
        walked = namesEnded ? 1.0 : cursorShare(next.toULongLong());
        // The next page goes out before this one is classified, so the server walks on meanwhile;
        // its replies come after this page's typed ones, in order.
        if (!namesEnded && !cancel.isCancelled())
            scanPage(next);
        const QList<RedisReply> &keys = reply.elements.at(1).elements;
        for (const RedisReply &k : keys)
            classify(k.str, QByteArrayLiteral("string"));
        scanned += keys.size();
    }

    // The ZSETs or hashes of the page whose names came last; the hash page ends the page.
    void onTypedPage(const RedisReply &reply, const QByteArray &type, bool endsPage) {
        if (finished)
            return;
        if (!isScanPage(reply)) {
            finish(false, kinds::failureText(QStringLiteral("SCAN TYPE %1").arg(QLatin1String(type)), reply));
            return;
        }
        for (const RedisReply &k : reply.elements.at(1).elements)
            classify(k.str, type);
        if (endsPage)
            afterTypes(namesEnded);
    }

    // Every SCAN loop ends: Redis returns each cursor of one walk once and reaches 0 within a
    // number of pages that grows with DBSIZE. Empty when `next` is fine, else why the walk stops.
    QString checkCursor(const QByteArray &next) {
        bool numeric = false;
        next.toULongLong(&numeric);
        if (!numeric)
            return QStringLiteral("SCAN returned a cursor that is not a number; stopped");
        ++pages;
        if (next == "0")
            return {};
        if (cursorsSeen.contains(next))
            return QStringLiteral("SCAN returned cursor %1 a second time, after %2 pages: the server is not "
                                  "walking the keyspace; stopped")
                .arg(QString::fromLatin1(next))
                .arg(pages);
        const qint64 count = std::max(10, request.batch);
        const qint64 maxPages =
            kScanPagesBase + kScanPagesPerBatchOfKeys * (std::max<qint64>(total, 0) / count);
        if (pages > maxPages)
            return QStringLiteral(
                       "SCAN did not finish within %1 pages for %2 keys (DBSIZE): the server keeps "
                       "returning new cursors; stopped")
                .arg(maxPages)
                .arg(std::max<qint64>(total, 0));
        cursorsSeen.insert(next);
        return {};
    }

    // Keys from a names page come as "string": a name that makes a string a candidate (a lock, a
    // fair counter, a profile's Redisson semaphore) is sampled whatever its type, and the sample
    // says what it is. ZSETs and hashes come again from their typed pages.
    void classify(const QByteArray &key, const QByteArray &type) {
        const KeyRole role = keyRole(key, type);
        const bool redissonSemaphore =
            (type == "string" && redissonChannelNames.contains(key)) || namedKeys.contains(key);
        if (!role.candidate && !redissonSemaphore)
            return;
        const QByteArray base = groupBase(key, role);
        addKey(base, key);
        for (const QByteArray &companion : companionKeys(key, type))
            addKey(base, companion);
    }

    void afterTypes(bool last) {
        report({});
        if (stopIfCancelled() || !last)
            return;
        scanEndMs = sinceStart.elapsed();
        // Redisson semaphores whose key SCAN did not return under MATCH are not added: MATCH rules.
        QList<QByteArray> batch;
        for (auto &[base, keys] : groups) {
            for (const QByteArray &k : std::as_const(keys))
                batch << k;
            if (batch.size() >= std::max(1, request.sampleBatch)) {
                batches.push_back(batch);
                batch.clear();
            }
        }
        if (!batch.isEmpty())
            batches.push_back(batch);
        groups.clear();
        sampleNext();
    }

    // Up to kBatchesInFlight batches are out at once: the server reads one while the replies of
    // the previous are on their way and being recognised.
    void sampleNext() {
        if (finished || stopIfCancelled())
            return;
        while (!finished && inFlight < kBatchesInFlight && nextBatch < batches.size()) {
            const QList<QByteArray> keys = batches.at(nextBatch++);
            ++inFlight;
            if (nodeOfSlot) {
                sampleByNode(keys);
                continue;
            }
            ++sampleScripts;
            auto self = shared_from_this();
            sampler.eval(sampleScript, keys, {},
                         [self, keys](const RedisReply &reply) { self->onSample(keys, reply); });
        }
        if (!finished && inFlight == 0 && nextBatch >= batches.size())
            finish(true);
    }

    // The replies of one batch's scripts, put back in the batch's key order.
    struct SampleParts {
        QList<QByteArray> keys;
        QList<RedisReply> perKey;
        size_t left = 0;
        std::optional<RedisReply> failure;
    };

    // Cluster: one script per node serving some of the batch's keys (discovery_sample with the keys
    // undeclared, which the script's allow-cross-slot-keys flag lets it read across that node's
    // slots), all in flight at once; the batch is recognised when every part is back, so a layout
    // whose keys fall in several slots is still seen whole. The node is the one the slot map names;
    // a node script that fails (a slot of it migrating or moved since the map was read: the server
    // refuses a key it does not serve, and the script, reading only, stops with nothing done) is
    // read again one script per slot through `sampler`, which follows MOVED and ASK as every
    // command does. Which master a semaphore is on is decided later, from the slot map, as before.
    void sampleByNode(const QList<QByteArray> &keys) {
        auto parts = std::make_shared<SampleParts>();
        parts->keys = keys;
        parts->perKey.resize(keys.size());
        std::map<RedisConnection *, QList<qsizetype>> byNode;
        std::map<int, QList<qsizetype>> bySlot; // keys of slots no node serves: per slot, as a fallback
        for (qsizetype i = 0; i < keys.size(); ++i) {
            const int slot = topology::hashSlot(keys.at(i));
            if (RedisConnection *node = nodeOfSlot(slot))
                byNode[node] << i;
            else
                bySlot[slot] << i;
        }
        parts->left = byNode.size() + bySlot.size();
        for (const auto &[node, indexes] : byNode)
            sampleOnNode(*node, parts, indexes);
        for (const auto &[slot, indexes] : bySlot)
            sampleSlot(parts, indexes);
    }

    void sampleOnNode(RedisConnection &node, const std::shared_ptr<SampleParts> &parts,
                      const QList<qsizetype> &indexes) {
        QList<QByteArray> nodeKeys;
        nodeKeys.reserve(indexes.size());
        for (qsizetype i : indexes)
            nodeKeys << parts->keys.at(i);
        ++sampleScripts;
        auto self = shared_from_this();
        node.eval(sampleScript, {}, nodeKeys, [self, parts, indexes](const RedisReply &reply) {
            if (self->finished)
                return;
            if (reply.isError() || !reply.isArray() || reply.elements.size() != indexes.size()) {
                ++self->nodeScriptFallbacks;
                qCDebug(lcDiscovery).nospace() << self->label << ": a node sample script failed ("
                                               << reply.describe() << "), read again per slot";
                std::map<int, QList<qsizetype>> bySlot;
                for (qsizetype i : indexes)
                    bySlot[topology::hashSlot(parts->keys.at(i))] << i;
                parts->left += bySlot.size() - 1; // this part becomes one per slot
                for (const auto &[slot, slotIndexes] : bySlot)
                    self->sampleSlot(parts, slotIndexes);
                return;
            }
            for (qsizetype j = 0; j < indexes.size(); ++j)
                parts->perKey[indexes.at(j)] = reply.elements.at(j);
            self->partDone(parts);
        });
    }

    void sampleSlot(const std::shared_ptr<SampleParts> &parts, const QList<qsizetype> &indexes) {
        QList<QByteArray> slotKeys;
        for (qsizetype i : indexes)
            slotKeys << parts->keys.at(i);
        ++sampleScripts;
        auto self = shared_from_this();
        sampler.eval(sampleScript, slotKeys, {}, [self, parts, indexes](const RedisReply &reply) {
            if (reply.isError() || !reply.isArray()) {
                if (!parts->failure)
                    parts->failure = reply;
            } else {
                for (qsizetype j = 0; j < indexes.size(); ++j)
                    parts->perKey[indexes.at(j)] = kinds::elementAt(reply, int(j));
            }
            self->partDone(parts);
        });
    }

    void partDone(const std::shared_ptr<SampleParts> &parts) {
        if (--parts->left > 0)
            return;
        if (parts->failure) {
            onSample(parts->keys, *parts->failure);
            return;
        }
        RedisReply whole;
        whole.type = RedisReply::Type::Array;
        whole.elements = std::move(parts->perKey);
        onSample(parts->keys, whole);
    }

    void onSample(const QList<QByteArray> &keys, const RedisReply &reply) {
        --inFlight;
        if (finished)
            return;
        if (reply.isError() || !reply.isArray()) {
            finish(false, kinds::failureText(QStringLiteral("reading key samples"), reply));
            return;
        }
        QList<KeyFingerprint> fps;
        fps.reserve(keys.size());
        for (qsizetype i = 0; i < keys.size(); ++i) {
            const RedisReply &e = kinds::elementAt(reply, int(i));
            KeyFingerprint fp;
            fp.key = keys.at(i);
            fp.type = kinds::elementAt(e, 0).str;
            fp.length = kinds::integerAt(e, 1).value_or(-1);
            fp.pttl = kinds::integerAt(e, 2).value_or(-2);
            fp.value = kinds::elementAt(e, 3).str;
            for (const RedisReply &m : kinds::elementAt(e, 4).elements)
                fp.members << m.str;
            for (const RedisReply &v : kinds::elementAt(e, 5).elements)
                fp.values << v.str;
            fp.channelSeen = redissonChannelNames.contains(fp.key);
            if (const auto named = namedKeys.constFind(fp.key); named != namedKeys.cend())
                fp.namedKind = *named;
            fps << fp;
        }
        QElapsedTimer recognition;
        recognition.start();
        const QList<core::DiscoveredSemaphore> batchFound =
            recognizeSemaphores(fps, serverNowAtStart + sinceStart.elapsed(), request.kind);
        recognitionNs += recognition.nsecsElapsed();
        found << batchFound;
        report(batchFound);
        sampleNext();
    }
};

} // namespace

void discoverSemaphores(RedisConnection &conn, const core::DiscoverRequest &request,
                        core::Cancellation cancel, core::Callback<core::DiscoverProgress> progress,
                        core::Callback<core::DiscoverResult> done) {
    auto job = std::make_shared<DiscoveryJob>(conn, conn, request, std::move(cancel), std::move(progress),
                                              std::move(done));
    job->start();
}

namespace {

// Walks of every master at once, merged into one progress stream and one result.
struct ClusterDiscovery : std::enable_shared_from_this<ClusterDiscovery> {
    topology::RedisTopology &topology;
    core::Callback<core::DiscoverProgress> progress;
    core::Callback<core::DiscoverResult> done;
    QList<core::NodeProgress> nodes;
    QList<core::DiscoveredSemaphore> found;
    QSet<QPair<int, QString>> seen;    // (kind, name): a split layout is found from each of its masters
    QSet<QPair<int, QString>> inFound; // (kind, name) of `found`
    QStringList errors;
    QStringList warnings;
    bool fromReplicas = false; // settings().discoverFromReplicas on a Cluster
    bool cancelled = false;
    qint64 scanned = 0;
    bool matchesOnly = false; // scansMatchesOnly() of the request
    int left = 0;

    ClusterDiscovery(topology::RedisTopology &t, core::Callback<core::DiscoverProgress> p,
                     core::Callback<core::DiscoverResult> d)
        : topology(t)
        , progress(std::move(p))
        , done(std::move(d)) {}

    // Names the master serving the semaphore and its slot; false when already found elsewhere.
    bool place(core::DiscoveredSemaphore &d) {
        if (!d.keys.isEmpty()) {
            d.slot = topology::hashSlot(d.keys.first().toUtf8());
            d.node = topology.nodeOfSlot(d.slot);
            if (fromReplicas)
                d.readFrom = topology.readNodeOfSlot(d.slot);
        }
        const QPair<int, QString> id{int(d.ref.kind), d.ref.name};
        if (seen.contains(id))
            return false;
        seen.insert(id);
        return true;
    }

    QList<core::DiscoveredSemaphore> placeAll(const QList<core::DiscoveredSemaphore> &list) {
        QList<core::DiscoveredSemaphore> fresh;
        for (core::DiscoveredSemaphore d : list) {
            if (place(d))
                fresh << d;
        }
        return fresh;
    }

    void report(const QList<core::DiscoveredSemaphore> &fresh) {
        if (!progress)
            return;
        core::DiscoverProgress p;
        p.nodes = nodes;
        p.found = fresh;
        bool totalKnown = true;
        qint64 total = 0;
        // Each master's share walked, weighed by its keys (every master counts for one key at least).
        double walkedKeys = 0;
        double weights = 0;
        bool walkedKnown = true;
        for (const core::NodeProgress &n : std::as_const(nodes)) {
            p.scannedKeys += n.scannedKeys;
            totalKnown = totalKnown && n.totalKeys >= 0;
            total += std::max<qint64>(n.totalKeys, 0);
            const double weight = double(std::max<qint64>(n.totalKeys, 1));
            walkedKnown = walkedKnown && n.walked >= 0;
            walkedKeys += std::max(n.walked, 0.0) * weight;
            weights += weight;
        }
        p.totalKeys = totalKnown ? total : -1;
        p.walked = walkedKnown && weights > 0 ? walkedKeys / weights : -1;
        p.scannedAreMatches = matchesOnly;
        progress(p);
    }

    void start(const core::DiscoverRequest &request, const core::Cancellation &cancel) {
        matchesOnly = scansMatchesOnly(request);
        if (!topology.settings().discoverFromReplicas) {
            walk(request, cancel, {});
            return;
        }
        // Each master's keyspace is walked on one of its replicas (the master itself when none
        // answers, and the result says so); key samples go the same way.
        fromReplicas = true;
        auto self = shared_from_this();
        topology.chooseReadNodes(
            [self, request, cancel](const QList<topology::RedisTopology::ReadNode> &chosen) {
                for (const auto &n : chosen) {
                    if (!n.replica)
                        self->warnings << QStringLiteral("master %1 read itself: %2").arg(n.master, n.why);
                }
                self->walk(request, cancel, chosen);
            });
    }

    // `readNodes` empty: every master is walked itself.
    void walk(const core::DiscoverRequest &request, const core::Cancellation &cancel,
              const QList<topology::RedisTopology::ReadNode> &readNodes) {
        QList<RedisConnection *> masters;
        if (readNodes.isEmpty()) {
            masters = topology.masterConnections();
        } else {
            for (const auto &n : readNodes)
                masters << &topology.readConnection(n.master);
        }
        left = int(masters.size());
        if (masters.isEmpty()) {
            errors << QStringLiteral("the cluster's slot map names no master");
            finish();
            return;
        }
        for (qsizetype i = 0; i < masters.size(); ++i) {
            core::NodeProgress n;
            const ConnectionSettings &s = masters.at(i)->settings();
            n.node = s.host + QLatin1Char(':') + QString::number(s.port);
            if (!readNodes.isEmpty()) {
                n.node = readNodes.at(i).master;
                n.readFrom = readNodes.at(i).label();
            }
            nodes << n;
        }
        for (int i = 0; i < masters.size(); ++i)
            startWalk(i, *masters.at(i), request, cancel, !readNodes.isEmpty() && readNodes.at(i).replica);
    }

    // The walk of master `i` on `conn` (the master, or its chosen replica: onReplica).
    void startWalk(int i, RedisConnection &conn, const core::DiscoverRequest &request,
                   const core::Cancellation &cancel, bool onReplica) {
        auto self = shared_from_this();
        auto onProgress = [self, i](const core::DiscoverProgress &p) {
            self->nodes[i].scannedKeys = p.scannedKeys;
            self->nodes[i].totalKeys = p.totalKeys;
            self->nodes[i].walked = p.walked;
            self->report(self->placeAll(p.found));
        };
        auto onDone = [self, i, request, cancel, onReplica](const core::DiscoverResult &r) {
            core::NodeProgress &n = self->nodes[i];
            if (!r.ok && !r.cancelled && onReplica) {
                // The replica stopped answering mid-walk: its SCAN cursor means nothing on another
                // node, so the master is walked again from the start, and read itself from now on.
                const QString why =
                    self->topology.readMasterItself(n.node, QStringLiteral("during the walk"), r.error);
                self->warnings
                    << QStringLiteral("master %1 read itself: %2").arg(n.node, why.isEmpty() ? r.error : why);
                n.readFrom = n.node + QStringLiteral(" (master)");
                n.scannedKeys = 0;
                n.walked = 0;
                self->startWalk(i, self->topology.nodeConnection(n.node), request, cancel, false);
                return;
            }
            n.finished = true;
            n.scannedKeys = r.scannedKeys;
            n.walked = 1;
            self->scanned += r.scannedKeys;
            self->cancelled = self->cancelled || r.cancelled;
            if (!r.ok && !r.cancelled)
                self->errors << n.node + QStringLiteral(": ") + r.error;
            // Semaphores already reported through progress are in `seen`; the result lists all.
            for (core::DiscoveredSemaphore d : r.semaphores) {
                self->place(d);
                const QPair<int, QString> id{int(d.ref.kind), d.ref.name};
                if (!self->inFound.contains(id)) {
                    self->inFound.insert(id);
                    self->found << d;
                }
            }
            self->report({});
            if (--self->left == 0)
                self->finish();
        };
        RedisCommands &sampler =
            fromReplicas ? topology.replicaReads() : static_cast<RedisCommands &>(topology);
        auto job = std::make_shared<DiscoveryJob>(conn, sampler, request, cancel, onProgress, onDone);
        job->label = nodes.at(i).node;
        job->nodeOfSlot = [self](int slot) -> RedisConnection * {
            const QString master = self->topology.clusterMap().masterOfSlot(slot);
            if (master.isEmpty())
                return nullptr;
            return self->fromReplicas ? &self->topology.readConnection(master)
                                      : &self->topology.nodeConnection(master);
        };
        job->start();
    }

    void finish() {
        core::DiscoverResult result;
        result.cancelled = cancelled;
        result.ok = errors.isEmpty() && !cancelled;
        result.error = cancelled ? QStringLiteral("cancelled") : errors.join(QStringLiteral("; "));
        result.semaphores = found;
        result.scannedKeys = scanned;
        result.scannedAreMatches = matchesOnly;
        result.warnings = warnings;
        done(result);
    }
};

} // namespace

void discoverSemaphores(topology::RedisTopology &topology, const core::DiscoverRequest &request,
                        core::Cancellation cancel, core::Callback<core::DiscoverProgress> progress,
                        core::Callback<core::DiscoverResult> done) {
    QPointer<topology::RedisTopology> guard(&topology);
    topology.detect([guard, request, cancel, progress, done](const QString &) {
        if (!guard)
            return;
        if (guard->mode() != topology::RedisTopology::Mode::Cluster) {
            const QString node = guard->nodeOfSlot(0);
            auto named = [node](QList<core::DiscoveredSemaphore> list) {
                for (core::DiscoveredSemaphore &d : list)
                    d.node = node;
                return list;
            };
            discoverSemaphores(
                guard->entry(), request, cancel,
                [progress, named](core::DiscoverProgress p) {
                    p.found = named(p.found);
                    if (progress)
                        progress(p);
                },
                [done, named](core::DiscoverResult r) {
                    r.semaphores = named(r.semaphores);
                    done(r);
                });
            return;
        }
        auto job = std::make_shared<ClusterDiscovery>(*guard, progress, done);
        job->start(request, cancel);
    });
}

} // namespace semscope::redis
