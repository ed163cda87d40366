// `semscope-cli sandbox consul [--port P]`: runs the Consul API test double in the foreground, so
// semscope (GUI or CLI) and Consul's own tools can be tried without a Consul server. Stops cleanly on
// SIGTERM or SIGINT.
#include "CliCommand.h"
#include "CliContext.h"
#include "WholeNumber.h"
#include "consuldouble/ConsulDouble.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QSocketNotifier>
#include <csignal>
#include <sys/socket.h>
#include <unistd.h>

namespace semscope::cli {

namespace {

int g_signalPipe[2] = {-1, -1};

void onSignal(int) {
    const char byte = 1;
    // Only async-signal-safe work here; the event loop reads the byte.
    [[maybe_unused]] const ssize_t n = ::write(g_signalPipe[1], &byte, 1);
}

class SandboxCommand : public CliCommand {
public:
    QString name() const override { return QStringLiteral("sandbox"); }
    QString summary() const override {
        return QStringLiteral("Run a local Consul API double (sandbox consul [--port P]) until Ctrl-C.");
    }
    QString usage() const override { return QStringLiteral("consul [--port P]"); }
    QList<QCommandLineOption> options() const override {
        return {{QStringLiteral("port"),
                 QStringLiteral("sandbox: TCP port to listen on (default: a free one)."),
                 QStringLiteral("P")}};
    }

    void start(CliContext &ctx) override {
        if (ctx.args() != QStringList{QStringLiteral("consul")})
            return ctx.fail(ExitUsage, {}, QStringLiteral("usage: sandbox consul [--port P]"));
        // 0: a free one.
        const std::optional<qint64> p = wholeNumberOption(ctx, QStringLiteral("port"), 0, 0, 65535);
        if (!p)
            return;
        const quint16 port = quint16(*p);
        m_double = std::make_unique<consul::ConsulDouble>();
        if (!m_double->listen(QHostAddress::LocalHost, port))
            return ctx.fail(ExitUsage, QStringLiteral("127.0.0.1:%1").arg(port),
                            QStringLiteral("cannot listen: %1").arg(m_double->errorString()));

        if (::socketpair(AF_UNIX, SOCK_STREAM, 0, g_signalPipe) != 0)
            return ctx.fail(ExitUsage, {}, QStringLiteral("cannot set up signal handling"));
        m_notifier = std::make_unique<QSocketNotifier>(g_signalPipe[0], QSocketNotifier::Read);
        QObject::connect(m_notifier.get(), &QSocketNotifier::activated, m_notifier.get(), [this, &ctx] {
            char byte = 0;
            [[maybe_unused]] const ssize_t n = ::read(g_signalPipe[0], &byte, 1);
            m_notifier->setEnabled(false);
            m_double->close();
            if (!ctx.json())
                ctx.out() << "sandbox stopped\n";
            ctx.finish(ExitOk);
        });
        struct sigaction sa = {};
        sa.sa_handler = onSignal;
        sigemptyset(&sa.sa_mask);
        ::sigaction(SIGTERM, &sa, nullptr);
        ::sigaction(SIGINT, &sa, nullptr);

        const QString url = m_double->url().toString();
        if (ctx.json()) {
            ctx.printJson(QJsonObject{{QStringLiteral("address"), url},
                                      {QStringLiteral("node"), m_double->nodeName()},
                                      {QStringLiteral("datacenter"), m_double->datacenter()}});
        } else {
            ctx.out() << "Consul API sandbox listening on " << url << '\n'
                      << "  try: semscope-cli --consul " << url << " list\n"
                      << "  or:  export CONSUL_HTTP_ADDR=127.0.0.1:" << m_double->port() << '\n'
                      << "Stop with Ctrl-C.\n";
        }
        ctx.out().flush();
    }

private:
    std::unique_ptr<consul::ConsulDouble> m_double;
    std::unique_ptr<QSocketNotifier> m_notifier;
};

} // namespace

std::unique_ptr<CliCommand> makeSandboxCommand() {
    return std::make_unique<SandboxCommand>();
}

} // namespace semscope::cli
