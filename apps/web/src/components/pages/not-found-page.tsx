import { IconCompass } from '@tabler/icons-react';
import { InsteadOfPage } from './message-page';

/** An address the console has no page for. */
export function NotFoundPage() {
  return <InsteadOfPage topic="notFound" icon={<IconCompass size={28} />} color="gray" testId="not-found" />;
}
