# Precompiled headers: the Qt and standard headers most files of a layer include, parsed once
# instead of once per file. GCC's precompiled headers are large (85 MB for <QString> alone), so
# targets compiled with the same flags share one: the first target of a layer makes it, the others
# reuse it. -Winvalid-pch (semscope_options) makes a shared header that does not fit its user an
# error instead of a silent slow build. SEMSCOPE_PCH=OFF builds without them, to check that every
# file includes what it uses.

set(SEMSCOPE_PCH_CORE
    <algorithm> <functional> <memory> <optional> <vector>
    <QByteArray> <QDateTime> <QElapsedTimer> <QHash> <QJsonArray> <QJsonDocument> <QJsonObject> <QList>
    <QMetaType> <QObject> <QPointer> <QRegularExpression> <QSet> <QString> <QStringList> <QTimer>
    <QVariant>)
set(SEMSCOPE_PCH_NETWORK ${SEMSCOPE_PCH_CORE}
    <QNetworkAccessManager> <QNetworkReply> <QSslSocket> <QTcpSocket> <QUrl>)
set(SEMSCOPE_PCH_GUI ${SEMSCOPE_PCH_NETWORK}
    <QAbstractTableModel> <QBrush> <QColor> <QSortFilterProxyModel>)
set(SEMSCOPE_PCH_WIDGETS ${SEMSCOPE_PCH_GUI}
    <QAction> <QApplication> <QCheckBox> <QComboBox> <QDialog> <QDialogButtonBox> <QFormLayout>
    <QHBoxLayout> <QHeaderView> <QLabel> <QLineEdit> <QMenu> <QMessageBox> <QPushButton> <QSpinBox>
    <QSplitter> <QTableView> <QToolButton> <QVBoxLayout> <QWidget>)
set(SEMSCOPE_PCH_TEST ${SEMSCOPE_PCH_WIDGETS} <QtTest> <QSignalSpy> <QTemporaryDir>)

# semscope_precompile(<target> <layer>): <layer> is CORE, NETWORK, GUI, WIDGETS or TEST. Every
# target of one layer must be compiled with the same options and Qt module definitions.
function(semscope_precompile target layer)
    if(NOT SEMSCOPE_PCH)
        return()
    endif()
    get_property(owner GLOBAL PROPERTY SEMSCOPE_PCH_OWNER_${layer})
    if(owner)
        target_precompile_headers(${target} REUSE_FROM ${owner})
    else()
        target_precompile_headers(${target} PRIVATE ${SEMSCOPE_PCH_${layer}})
        set_property(GLOBAL PROPERTY SEMSCOPE_PCH_OWNER_${layer} ${target})
    endif()
endfunction()
