import { IconLayoutDashboard } from '@tabler/icons-react';
import { useTranslation } from '../../lib/i18n';
import { MessagePage } from './message-page';

/** The start page of a user who may open no page yet. */
export function EmptyStartPage() {
  const { t } = useTranslation();
  return (
    <MessagePage
      icon={<IconLayoutDashboard size={28} />}
      title={t('start.emptyTitle')}
      message={t('start.emptyMessage')}
    />
  );
}
