#pragma once

// Request/response pairs from Consul's HTTP API documentation for tst_consul_api (kept out of the
// moc'd file: moc does not read raw string literals with delimiters).

namespace {

struct Step {
    const char *name;
    const char *method;
    const char *target;
    const char *body;
    int status;
    const char *expect;  // exact body, or "re:<regex>" (named groups are captured as variables)
    const char *headers; // "Name: exact|Name~regex|..." ; empty: none checked
};

constexpr const char *kKvEntry =
    R"~(\[\{"LockIndex":0,"Key":"{p}/a","Flags":0,"Value":"aGVsbG8=","CreateIndex":\d+,"ModifyIndex":(?<mi>\d+)\}\])~";

// clang-format off
const Step kSteps[] = {
    {"agent self", "GET", "/v1/agent/self", nullptr, 200, R"~(re:.*"NodeName":"(?<node>[^"]+)".*)~", "Content-Type: application/json"},
    {"missing key is 404 with empty body", "GET", "/v1/kv/{p}/missing", nullptr, 404, "", "X-Consul-Index~^[1-9][0-9]*$|X-Consul-KnownLeader: true|X-Consul-LastContact~^[0-9]+$"},
    {"empty key needs recurse", "GET", "/v1/kv/", nullptr, 400, "Missing key name", ""},
    {"put answers true", "PUT", "/v1/kv/{p}/a", "hello", 200, "true", "Content-Type: application/json|X-Consul-Default-ACL-Policy~^(allow)?(deny)?$"},
    {"get is a one-element list", "GET", "/v1/kv/{p}/a", nullptr, 200, "re:", "X-Consul-Index~^[1-9][0-9]*$"},
    {"raw value", "GET", "/v1/kv/{p}/a?raw", nullptr, 200, "hello", "Content-Type: text/plain|X-Content-Type-Options: nosniff"},
    {"cas=0 on an existing key", "PUT", "/v1/kv/{p}/a?cas=0", "x", 200, "false", ""},
    {"cas with a stale index", "PUT", "/v1/kv/{p}/a?cas=1", "x", 200, "false", ""},
    {"cas with the current index", "PUT", "/v1/kv/{p}/a?cas={mi}", "hello", 200, "true", ""},
    {"cas=0 creates", "PUT", "/v1/kv/{p}/c0?cas=0", "", 200, "true", ""},
    {"empty body stores null", "GET", "/v1/kv/{p}/c0", nullptr, 200, R"~(re:\[\{"LockIndex":0,"Key":"{p}/c0","Flags":0,"Value":null,"CreateIndex":\d+,"ModifyIndex":\d+\}\])~", ""},
    {"uint64 flags", "PUT", "/v1/kv/{p}/b?flags=16210313421097356768", "x", 200, "true", ""},
    {"uint64 flags read back exactly", "GET", "/v1/kv/{p}/b", nullptr, 200, R"~(re:.*"Flags":16210313421097356768,.*)~", ""},
    {"put without flags resets them", "PUT", "/v1/kv/{p}/b", "x", 200, "true", ""},
    {"flags are 0 again", "GET", "/v1/kv/{p}/b", nullptr, 200, R"~(re:.*"Flags":0,.*)~", ""},
    {"folder key", "PUT", "/v1/kv/{p}/dir/c", "c", 200, "true", ""},
    {"recurse lists sorted entries", "GET", "/v1/kv/{p}/?recurse", nullptr, 200, R"~(re:\[\{"LockIndex":0,"Key":"{p}/a".*\},\{"LockIndex":0,"Key":"{p}/b".*\},\{"LockIndex":0,"Key":"{p}/c0".*\},\{"LockIndex":0,"Key":"{p}/dir/c".*\}\])~", "X-Consul-Index~^[1-9][0-9]*$"},
    {"keys", "GET", "/v1/kv/{p}/?keys", nullptr, 200, R"~(["{p}/a","{p}/b","{p}/c0","{p}/dir/c"])~", ""},
    {"keys with separator", "GET", "/v1/kv/{p}/?keys&separator=/", nullptr, 200, R"~(["{p}/a","{p}/b","{p}/c0","{p}/dir/"])~", ""},
    {"keys of nothing is 404", "GET", "/v1/kv/{p}/nothing/?keys", nullptr, 404, "", ""},
    {"recurse of nothing is 404", "GET", "/v1/kv/{p}/nothing/?recurse", nullptr, 404, "", ""},
    {"stale and consistent conflict", "GET", "/v1/kv/{p}/a?stale&consistent", nullptr, 400, "Cannot specify ?stale with ?consistent, conflicting semantics.", ""},
    {"bad index", "GET", "/v1/kv/{p}/a?index=abc", nullptr, 400, "Invalid index", ""},
    {"bad wait", "GET", "/v1/kv/{p}/a?index=1&wait=xyz", nullptr, 400, "Invalid wait time", ""},
    {"pretty", "GET", "/v1/kv/{p}/a?pretty", nullptr, 200, "re:\\[\\n    \\{\\n        \"LockIndex\": 0,\\n        \"Key\": \"{p}/a\",\\n[\\s\\S]*\\n    \\}\\n\\]\\n", ""},
    {"conflicting cas and acquire", "PUT", "/v1/kv/{p}/a?cas=1&acquire=x", "", 400, "Conflicting flags: acquire=x&cas=1\n", ""},
    {"conflicting recurse and cas", "DELETE", "/v1/kv/{p}/dir?recurse&cas=1", nullptr, 400, "Conflicting flags: cas=1&recurse=\n", ""},
    {"unknown datacenter", "GET", "/v1/kv/{p}/a?dc=nowhere-dc", nullptr, 500, "No path to datacenter", ""},
    {"wrong method", "POST", "/v1/kv/{p}/a", "", 405, "re:.*", "Allow: GET,PUT,DELETE"},
    {"value too large", "PUT", "/v1/kv/{p}/big", "{600k}", 413, R"~(re:Request body\(614400 bytes\) too large, max size: 524288 bytes\..*)~", ""},
    {"ttl below the minimum", "PUT", "/v1/session/create", R"~({"Name":"t","TTL":"1s"})~", 500, "re:.*Invalid Session TTL '1000000000', must be between \\[10s=24h0m0s\\]", ""},
    {"bad behavior", "PUT", "/v1/session/create", R"~({"Behavior":"nope"})~", 500, "re:.*Invalid Behavior setting 'nope'", ""},
    {"bad session json", "PUT", "/v1/session/create", "{bad", 400, "re:Request decode failed: .*", ""},
    {"create session", "PUT", "/v1/session/create", R"~({"Name":"s1","TTL":"30s","Behavior":"delete"})~", 200, R"~(re:\{"ID":"(?<sid>[0-9a-f-]{36})"\})~", "Content-Type: application/json"},
    {"session info", "GET", "/v1/session/info/{sid}", nullptr, 200, R"~(re:\[\{"ID":"{sid}","Name":"s1",.*"Node":"{node}",.*"LockDelay":15000000000,.*"Behavior":"delete","TTL":"30s",.*"NodeChecks":\["serfHealth"\],.*"CreateIndex":\d+,"ModifyIndex":\d+\}\])~", "X-Consul-Index~^[1-9][0-9]*$"},
    {"unknown session info is []", "GET", "/v1/session/info/00000000-0000-0000-0000-000000000000", nullptr, 200, "[]", ""},
    {"renew answers a list", "PUT", "/v1/session/renew/{sid}", "", 200, R"~(re:\[\{"ID":"{sid}",.*\}\])~", ""},
    {"renew unknown is 404", "PUT", "/v1/session/renew/00000000-0000-0000-0000-000000000000", "", 404, "Session id '00000000-0000-0000-0000-000000000000' not found", ""},
    {"session list", "GET", "/v1/session/list", nullptr, 200, R"~(re:\[.*"ID":"{sid}".*\])~", "X-Consul-Index~^[1-9][0-9]*$"},
    {"sessions of the node", "GET", "/v1/session/node/{node}", nullptr, 200, R"~(re:\[.*"ID":"{sid}".*\])~", ""},
    {"acquire", "PUT", "/v1/kv/{p}/lock?acquire={sid}", "v", 200, "true", ""},
    {"acquired key shows session and LockIndex 1", "GET", "/v1/kv/{p}/lock", nullptr, 200, R"~(re:\[\{"LockIndex":1,"Key":"{p}/lock","Flags":0,"Value":"dg==","Session":"{sid}","CreateIndex":\d+,"ModifyIndex":\d+\}\])~", ""},
    {"re-acquire by the holder", "PUT", "/v1/kv/{p}/lock?acquire={sid}", "v", 200, "true", ""},
    {"LockIndex unchanged by re-acquire", "GET", "/v1/kv/{p}/lock", nullptr, 200, R"~(re:\[\{"LockIndex":1,.*"Session":"{sid}".*)~", ""},
    {"plain put keeps the lock", "PUT", "/v1/kv/{p}/lock", "w", 200, "true", ""},
    {"still locked", "GET", "/v1/kv/{p}/lock", nullptr, 200, R"~(re:.*"Value":"dw==","Session":"{sid}".*)~", ""},
    {"acquire with an unknown session", "PUT", "/v1/kv/{p}/lock?acquire=00000000-0000-0000-0000-000000000000", "", 500, R"~(re:.*invalid session "00000000-0000-0000-0000-000000000000".*)~", ""},
    {"second session", "PUT", "/v1/session/create", R"~({"Name":"s2"})~", 200, R"~(re:\{"ID":"(?<sid2>[0-9a-f-]{36})"\})~", ""},
    {"acquire of a held key is false", "PUT", "/v1/kv/{p}/lock?acquire={sid2}", "", 200, "false", ""},
    {"release by a non-holder is false", "PUT", "/v1/kv/{p}/lock?release={sid2}", "", 200, "false", ""},
    {"release by the holder", "PUT", "/v1/kv/{p}/lock?release={sid}&flags=7", "r", 200, "true", ""},
    {"release clears Session, keeps LockIndex, takes value and flags", "GET", "/v1/kv/{p}/lock", nullptr, 200, R"~(re:\[\{"LockIndex":1,"Key":"{p}/lock","Flags":7,"Value":"cg==","CreateIndex":\d+,"ModifyIndex":\d+\}\])~", ""},
    {"s2 takes a key", "PUT", "/v1/kv/{p}/held?acquire={sid2}", "", 200, "true", ""},
    {"destroy s2", "PUT", "/v1/session/destroy/{sid2}", "", 200, "true", ""},
    {"destroy is idempotent", "PUT", "/v1/session/destroy/{sid2}", "", 200, "true", ""},
    {"behavior release keeps the key unlocked", "GET", "/v1/kv/{p}/held", nullptr, 200, R"~(re:\[\{"LockIndex":1,"Key":"{p}/held","Flags":0,"Value":null,"CreateIndex":\d+,"ModifyIndex":\d+\}\])~", ""},
    {"lock-delay refuses the re-acquire", "PUT", "/v1/kv/{p}/held?acquire={sid}", "", 200, "false", ""},
    {"s1 takes a key with behavior delete", "PUT", "/v1/kv/{p}/dk?acquire={sid}", "", 200, "true", ""},
    {"destroy s1", "PUT", "/v1/session/destroy/{sid}", "", 200, "true", ""},
    {"behavior delete removed the key", "GET", "/v1/kv/{p}/dk", nullptr, 404, "", ""},
    {"destroy without id", "PUT", "/v1/session/destroy/", "", 400, "re:Missing session.*", ""},
    {"delete with a stale cas", "DELETE", "/v1/kv/{p}/a?cas=1", nullptr, 200, "false", ""},
    {"delete cas of an absent key", "DELETE", "/v1/kv/{p}/absent?cas=5", nullptr, 200, "true", ""},
    {"delete", "DELETE", "/v1/kv/{p}/b", nullptr, 200, "true", ""},
    {"delete again", "DELETE", "/v1/kv/{p}/b", nullptr, 200, "true", ""},
    {"txn set+get", "PUT", "/v1/txn", R"~([{"KV":{"Verb":"set","Key":"{p}/t1","Value":"dHg=","Flags":16210313421097356768}},{"KV":{"Verb":"get","Key":"{p}/t1"}}])~", 200,
     R"~(re:\{"Results":\[\{"KV":\{"LockIndex":0,"Key":"{p}/t1","Flags":16210313421097356768,"Value":null,"CreateIndex":(?<t1>\d+),"ModifyIndex":\d+\}\},\{"KV":\{"LockIndex":0,"Key":"{p}/t1","Flags":16210313421097356768,"Value":"dHg=","CreateIndex":\d+,"ModifyIndex":\d+\}\}\],"Errors":null\})~", "Content-Type: application/json"},
    {"txn rollback is 409", "PUT", "/v1/txn", R"~([{"KV":{"Verb":"set","Key":"{p}/t2","Value":"eA=="}},{"KV":{"Verb":"cas","Key":"{p}/t1","Index":1,"Value":"eA=="}}])~", 409,
     R"~({"Results":null,"Errors":[{"OpIndex":1,"What":"failed to set key \"{p}/t1\", index is stale"}]})~", ""},
    {"rolled back write is absent", "GET", "/v1/kv/{p}/t2", nullptr, 404, "", ""},
    {"txn cas with the right index", "PUT", "/v1/txn", R"~([{"KV":{"Verb":"cas","Key":"{p}/t1","Index":{t1},"Value":"eQ=="}}])~", 200, R"~(re:\{"Results":\[\{"KV":\{"LockIndex":0,"Key":"{p}/t1","Flags":0,"Value":null,.*\}\}\],"Errors":null\})~", ""},
    {"txn with too many ops", "PUT", "/v1/txn", "{ops65}", 413, "Transaction contains too many operations (65 > 64)", ""},
    {"txn with a bad body", "PUT", "/v1/txn", "nope", 400, "re:Failed to parse body: .*", ""},
    {"unknown endpoint", "GET", "/v1/no-such-endpoint", nullptr, 404, "re:.*", ""},
    {"recursive delete", "DELETE", "/v1/kv/{p}/?recurse", nullptr, 200, "true", ""},
    {"all gone", "GET", "/v1/kv/{p}/?recurse", nullptr, 404, "", ""},
};
// clang-format on

} // namespace
