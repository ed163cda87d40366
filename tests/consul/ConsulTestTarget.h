#pragma once

#include "consul/ConsulClient.h"
#include "consuldouble/ConsulDouble.h"

#include <QEventLoop>
#include <QProcessEnvironment>
#include <QTimer>
#include <QUuid>
#include <memory>

// Where a Consul test talks to: the in-process API double, or a real agent named by
// CONSUL_HTTP_ADDR (token from CONSUL_HTTP_TOKEN) for the real-agent variants.
struct ConsulTestTarget {
    std::unique_ptr<semscope::consul::ConsulDouble> fake; // null for a real agent
    semscope::consul::ConsulConfig config;
    QString prefix; // unique per run, so a real agent's data is never touched

    static bool realAgentConfigured() {
        return QProcessEnvironment::systemEnvironment().contains(QStringLiteral("CONSUL_HTTP_ADDR"));
    }

    // Returns an error text when the target could not be set up.
    QString open(bool realAgent) {
        prefix = QStringLiteral("semscope-test/%1").arg(QUuid::createUuid().toString(QUuid::Id128).left(12));
        if (realAgent) {
            config = semscope::consul::ConsulConfig::fromEnvironment();
            return {};
        }
        fake = std::make_unique<semscope::consul::ConsulDouble>();
        if (!fake->listen())
            return fake->errorString();
        config.address = fake->url();
        return {};
    }
};

// Runs one request to completion (the test waits on the reply, bounded by a generous timeout).
inline semscope::consul::HttpResult syncRequest(semscope::consul::ConsulClient &client,
                                                const QByteArray &method, const QString &target,
                                                const QByteArray &body, int timeoutMs = 60000) {
    const qsizetype q = target.indexOf(QLatin1Char('?'));
    const QString path = q < 0 ? target : target.left(q);
    const QString query = q < 0 ? QString() : target.mid(q + 1);
    semscope::consul::HttpResult out;
    bool done = false;
    QEventLoop loop;
    const auto id = client.request(method, path, query, body, [&](semscope::consul::HttpResult r) {
        out = std::move(r);
        done = true;
        loop.quit();
    });
    QTimer guard;
    guard.setSingleShot(true);
    QObject::connect(&guard, &QTimer::timeout, &loop, &QEventLoop::quit);
    guard.start(timeoutMs);
    if (!done)
        loop.exec();
    if (!done) {
        client.abort(id); // runs the callback now, while `out` and `loop` still exist
        out.error = QStringLiteral("test timed out waiting for the reply");
    }
    return out;
}
