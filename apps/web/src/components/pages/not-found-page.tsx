import { IconCompass } from '@tabler/icons-react';
import { useTranslation } from '../../lib/i18n';
import { MessagePage } from './message-page';

/** An address the console has no page for. */
export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <MessagePage
      icon={<IconCompass size={28} />}
      color="gray"
      title={t('notFound.title')}
      message={t('notFound.message')}
      homeLink
      testId="not-found"
    />
  );
}
