import { IconHourglassHigh } from '@tabler/icons-react';
import { InsteadOfPage } from './message-page';

/**
 * What a link to a section of the console that is not built yet shows, whoever follows it: the
 * section by name, and that nothing is wrong with the account or the link (unlike "no access" and
 * "not found", which say exactly that).
 */
export function UnavailablePage({ section }: { section: string }) {
  return (
    <InsteadOfPage
      topic="unavailable"
      values={{ section }}
      icon={<IconHourglassHigh size={28} />}
      color="blue"
      testId="unavailable"
    />
  );
}
