#include "PinnedKeys.h"

#include "MainWindow.h"
#include "OpenKeyDialog.h"
#include "SemaphorePage.h"
#include "model/ConnectionSession.h"
#include "model/RawKeysLoader.h"

#include <QPointer>
#include <QStatusBar>

namespace semscope::ui {

using namespace semscope::core;

PinnedKeys::PinnedKeys(MainWindow *window, model::ConnectionRegistry *registry)
    : QObject(window)
    , m_window(window)
    , m_registry(registry) {}

OpenKeyDialog *PinnedKeys::openKey() {
    ConnectionSession *s = m_window->currentSession();
    if (!s || s->config().backend != Backend::Redis) {
        m_window->statusBar()->showMessage(
            MainWindow::tr("Open key… reads a Redis key: select a connected Redis connection first "
                           "(Consul semaphores are found by their KV prefix)"),
            15000);
        return nullptr;
    }
    const QString id = s->config().id;
    QPointer<ConnectionSession> reader(s);
    auto lookUp = [session = reader](const QString &key, QObject *context,
                                     std::function<void(RawKeys)> done) {
        if (!session) {
            RawKeys gone;
            gone.error = MainWindow::tr("the connection was closed");
            done(gone);
            return;
        }
        // Read as a lock: its keys are the name alone, so the raw read is TYPE, PTTL and a bounded
        // sample of exactly that key, on the connection's thread.
        model::RawKeysLoader::read(&session->controller, SemaphoreRef{Kind::Lock, key, {}}, context,
                                   std::move(done));
    };
    auto *dialog = new OpenKeyDialog(s->config().name, lookUp, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog, id] {
        const SemaphoreRef ref = dialog->chosen();
        if (ref.name.isEmpty())
            return;
        if (auto c = m_registry->find(id); c && c->pin(ref))
            m_registry->upsert(*c); // the profile: listed again after a restart
        ConnectionSession *s = m_window->session(id);
        if (!s)
            return;
        s->listPinned();
        m_window->openSemaphore(id, ref);
        m_window->statusBar()->showMessage(
            s->located(MainWindow::tr("%1 “%2” is listed from now on (right-click → Forget to stop)")
                           .arg(kindName(ref.kind), ref.name)),
            15000);
    });
    dialog->open();
    return dialog;
}

void PinnedKeys::forget(const QString &connectionId, const SemaphoreRef &ref) {
    if (auto c = m_registry->find(connectionId)) {
        const qsizetype before = c->pinned.size();
        c->pinned.removeIf([&](const SemaphoreRef &p) { return p == ref; });
        if (c->pinned.size() != before)
            m_registry->upsert(*c);
    }
    ConnectionSession *s = m_window->session(connectionId);
    if (!s)
        return;
    if (m_window->semaphorePage()->session() == s && m_window->semaphorePage()->ref() == ref) {
        s->shownSemaphore.reset();
        m_window->semaphorePage()->clearSemaphore();
    }
    s->forget(ref);
    m_window->statusBar()->showMessage(
        s->located(MainWindow::tr("%1 “%2” forgotten: listed again only if a scan finds it")
                       .arg(kindName(ref.kind), ref.name)),
        15000);
}

} // namespace semscope::ui
