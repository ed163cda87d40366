#include "TestWait.h"

#include <QCoreApplication>
#include <QEvent>
#include <QEventLoop>
#include <QTimer>
#include <memory>

namespace semscope::test {

bool waitFor(const std::function<bool()> &condition, int timeoutMs) {
    if (condition())
        return true;
    QEventLoop loop;
    // Re-check now and then as well as after events: some conditions (a child process's state)
    // change without an event in this thread.
    QTimer poll;
    poll.setInterval(10);
    QObject::connect(&poll, &QTimer::timeout, &loop, [&]() {
        if (condition())
            loop.quit();
    });
    QTimer deadline;
    deadline.setSingleShot(true);
    QObject::connect(&deadline, &QTimer::timeout, &loop, &QEventLoop::quit);
    poll.start();
    deadline.start(timeoutMs);
    loop.exec();
    return condition();
}

bool waitForCallback(const std::function<void(std::function<void()> done)> &issue, int timeoutMs) {
    // Shared so that a callback arriving after we gave up never touches the (gone) event loop.
    struct State {
        bool finished = false;
        QEventLoop *loop = nullptr;
    };
    auto state = std::make_shared<State>();
    QEventLoop loop;
    issue([state]() {
        state->finished = true;
        if (state->loop)
            state->loop->quit();
    });
    if (!state->finished) {
        state->loop = &loop;
        QTimer timer;
        timer.setSingleShot(true);
        QObject::connect(&timer, &QTimer::timeout, &loop, &QEventLoop::quit);
        timer.start(timeoutMs);
        loop.exec();
        state->loop = nullptr;
    }
    return state->finished;
}

void deliverPostedEvents() {
    // A layout request posts an update, which may post another layout: a few rounds settle it.
    for (int round = 0; round < 4; ++round) {
        QCoreApplication::sendPostedEvents();
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        QCoreApplication::processEvents(QEventLoop::AllEvents);
    }
}

} // namespace semscope::test
