import { Switch } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n';
import { notify } from '../../../lib/notifications';
import { usePermission } from '../../../lib/permissions';
import { savedSearchKeys, subscribeSavedSearch, type SavedSearch } from '../api/saved-searches';

/**
 * "Mail me the reports": the caller asks for, or stops, the mail of each report with hits the saved
 * search's runs write. Who may not read search reports cannot turn it on (they may still turn it off).
 */
export function SubscriptionSwitch({ saved, withLabel = false }: { saved: SavedSearch; withLabel?: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const readsReports = usePermission({ action: 'view', subject: 'search/reports' });
  const change = useMutation({
    mutationFn: (on: boolean) => subscribeSavedSearch(saved.id, on),
    onSuccess: async (answer) => {
      notify({
        type: 'success',
        message: t(answer.subscribed ? 'search.saved.subscribedNow' : 'search.saved.unsubscribedNow', {
          name: answer.name,
        }),
      });
      await queryClient.invalidateQueries({ queryKey: savedSearchKeys.all });
    },
  });
  return (
    <Switch
      checked={saved.subscribed}
      disabled={change.isPending || (!saved.subscribed && !readsReports)}
      onChange={(event) => change.mutate(event.currentTarget.checked)}
      label={withLabel ? t('search.saved.fields.mailMe') : undefined}
      aria-label={t('search.saved.mailMeAbout', { name: saved.name })}
      data-testid="saved-search-subscribe"
    />
  );
}
