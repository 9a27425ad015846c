// The one bundle every form panel loads: it starts the form the host named in <body data-form="…">. One bundle
// means one copy of the web components for all forms, and a page that is not on screen registers nothing.
import { startApplicationPage } from './features/applications/application.page';
import { startGroupPage } from './features/explorer/forms/group.page';
import { startOverviewPage } from './features/explorer/forms/overview.page';
import { startRecordPage } from './features/records/documents/page/record.page';
import { startMatrixPage } from './features/members/access/matrix.page';
import { startAssignmentsPage } from './features/members/forms/assignments/assignments.page';
import { startMemberPage } from './features/members/forms/member.page';
import { startReviewPage } from './features/review/review.page';

const PAGES: ReadonlyMap<string, () => void> = new Map([
  ['access', startMatrixPage],
  ['application', startApplicationPage],
  ['assignments', startAssignmentsPage],
  ['group', startGroupPage],
  ['member', startMemberPage],
  ['overview', startOverviewPage],
  ['record', startRecordPage],
  ['review', startReviewPage],
]);

PAGES.get(document.body.dataset.form ?? '')?.();
