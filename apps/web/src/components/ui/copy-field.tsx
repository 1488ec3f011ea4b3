import { ActionIcon, CopyButton, TextInput, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** A read-only value (a token, a link, a secret) with a button that copies it. */
export function CopyField({
  label,
  value,
  testId,
  description,
}: {
  label: string;
  value: string;
  testId?: string;
  description?: string;
}) {
  const { t } = useTranslation();
  return (
    <TextInput
      label={label}
      description={description}
      value={value}
      readOnly
      onFocus={(event) => event.currentTarget.select()}
      classNames={{ input: 'vigil-mono-input' }}
      data-testid={testId}
      rightSectionWidth={42}
      rightSection={
        <CopyButton value={value} timeout={2000}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? t('common.copied') : t('common.copy')} withArrow position="left">
              <ActionIcon
                variant="subtle"
                color={copied ? 'teal' : 'gray'}
                onClick={copy}
                aria-label={t('common.copy')}
                data-testid={testId ? `${testId}-copy` : undefined}
              >
                {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      }
    />
  );
}
