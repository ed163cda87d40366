// The reference of bench_loadtest's contended setup: the node redis-semaphore library's Semaphore,
// used as its README shows, with its default options (10 s lock timeout with refresh, a retry every
// 10 ms while busy), by N async clients that share one ioredis connection (ioredis pipelines their
// commands) and loop acquire -> release with no hold and no think time. With --connection-per-client
// each client has an ioredis connection of its own instead.
//
//   node contended.js --port P [--host H] [--clients 50] [--limit 5] [--duration-ms 4000 | --pairs N]
//                     [--connection-per-client]
//
// Prints one JSON object: pairs_per_s, pairs, acquire_p50_ms, acquire_p99_ms, jain_fairness, clients.
'use strict';
const Redis = require('ioredis');
const { Semaphore } = require('redis-semaphore');

function option(name, fallback) {
    const i = process.argv.indexOf('--' + name);
    return i > 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

async function main() {
    const port = Number(option('port', 6379));
    const host = option('host', '127.0.0.1');
    const clients = Number(option('clients', 50));
    const limit = Number(option('limit', 5));
    const durationMs = Number(option('duration-ms', 4000));
    const pairs = Number(option('pairs', 0)); // > 0: stop after this many pairs instead

    const perClient = process.argv.includes('--connection-per-client');
    const connections = [];
    for (let i = 0; i < (perClient ? clients : 1); ++i) {
        const redis = new Redis({ host, port, lazyConnect: true });
        await redis.connect();
        connections.push(redis);
    }
    await connections[0].del('semaphore:semscope-node-reference');

    const waits = [];
    const grants = new Array(clients).fill(0);
    let stop = false;
    let started = 0;
    async function client(i) {
        while (!stop && (pairs <= 0 || started < pairs)) {
            ++started;
            const semaphore = new Semaphore(connections[i % connections.length], 'semscope-node-reference', limit);
            const sent = process.hrtime.bigint();
            await semaphore.acquire();
            waits.push(Number(process.hrtime.bigint() - sent) / 1e6);
            await semaphore.release();
            ++grants[i];
        }
    }
    const begin = process.hrtime.bigint();
    const running = [];
    for (let i = 0; i < clients; ++i)
        running.push(client(i));
    if (pairs <= 0) {
        await new Promise((resolve) => setTimeout(resolve, durationMs));
        stop = true;
    }
    await Promise.all(running);
    const seconds = Number(process.hrtime.bigint() - begin) / 1e9;
    connections.forEach((redis) => redis.disconnect());

    waits.sort((a, b) => a - b);
    const percentile = (p) => (waits.length ? waits[Math.min(waits.length - 1, Math.floor(p * waits.length))] : 0);
    const sum = grants.reduce((a, b) => a + b, 0);
    const squares = grants.reduce((a, b) => a + b * b, 0);
    console.log(JSON.stringify({
        pairs_per_s: sum / seconds,
        pairs: sum,
        acquire_p50_ms: percentile(0.5),
        acquire_p99_ms: percentile(0.99),
        jain_fairness: squares > 0 ? (sum * sum) / (clients * squares) : 0,
        clients,
    }));
}

main().catch((e) => {
    console.error(String(e && e.stack ? e.stack : e));
    process.exit(1);
});
