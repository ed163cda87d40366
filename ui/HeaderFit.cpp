#include "HeaderFit.h"

#include <QHeaderView>

namespace semscope::ui {

void fitHeaderSections(QHeaderView *header, const QMap<int, int> &preferred) {
    for (int c = 0; c < header->count(); ++c)
        header->resizeSection(c, std::max(preferred.value(c, 0), header->sectionSizeHint(c)));
}

} // namespace semscope::ui
