import { IconLock } from '@tabler/icons-react';
import { InsteadOfPage } from './message-page';

/** What a direct link to a page the user may not open shows. */
export function NoAccessPage() {
  return <InsteadOfPage topic="noAccess" icon={<IconLock size={28} />} color="red" testId="no-access" />;
}
