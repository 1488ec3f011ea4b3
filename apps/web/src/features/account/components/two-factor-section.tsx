import { Badge, Button, Group, Paper, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { IconShieldCheck, IconShieldOff } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { QRCodeSVG } from 'qrcode.react';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { FormActions, FormError, FormFrame, fieldError } from '../../../components/form';
import { CopyField } from '../../../components/ui/copy-field';
import { notify } from '../../../lib/notifications';
import { refreshCurrentUser, useSignedInUser } from '../../../lib/session';
import { disableOtp, generateOtpSecret, saveOtpSecret } from '../api/account';
import { SettingsSection } from './settings-section';

/** Two-factor authentication: set up with a QR code and a confirming code; turned off with the password. */
export function TwoFactorSection({ locked }: { locked: boolean }) {
  const { t } = useTranslation();
  const user = useSignedInUser();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [disabling, setDisabling] = useState(false);
  const generate = useMutation({ mutationFn: generateOtpSecret });
  const confirm = useMutation({
    mutationFn: () => saveOtpSecret(code),
    onSuccess: async () => {
      generate.reset();
      setCode('');
      notify({ type: 'success', message: t('profile.twoFactorEnabled') });
      await refreshCurrentUser();
    },
  });
  const disable = useMutation({
    mutationFn: () => disableOtp(password),
    onSuccess: async () => {
      setPassword('');
      setDisabling(false);
      notify({ type: 'success', message: t('profile.twoFactorDisabled') });
      await refreshCurrentUser();
    },
  });
  const secret = generate.data;

  return (
    <SettingsSection topic="twoFactor" testId="profile-two-factor">
      <Stack gap="md">
        <Group gap="sm">
          <Badge
            color={user.twoFactorEnabled ? 'teal' : 'gray'}
            variant="light"
            leftSection={user.twoFactorEnabled ? <IconShieldCheck size={14} /> : <IconShieldOff size={14} />}
            data-testid="two-factor-status"
          >
            {user.twoFactorEnabled ? t('profile.twoFactorOn') : t('profile.twoFactorOff')}
          </Badge>
        </Group>

        {!user.twoFactorEnabled && !secret && (
          <Group>
            <Button
              loading={generate.isPending}
              disabled={locked}
              onClick={() => generate.mutate()}
              data-testid="two-factor-start"
            >
              {t('profile.twoFactorSetUp')}
            </Button>
          </Group>
        )}

        {!user.twoFactorEnabled && secret && (
          <Paper p="md" className="vigil-otp-setup">
            <Group align="flex-start" gap="lg" wrap="wrap">
              <div className="vigil-qr" data-testid="two-factor-qr">
                <QRCodeSVG value={secret.otpauthUrl} size={168} marginSize={2} title={t('profile.qrTitle')} />
              </div>
              <Stack gap="sm" className="vigil-otp-setup__steps">
                <Text size="sm">{t('profile.twoFactorStep1')}</Text>
                <CopyField label={t('profile.secret')} value={secret.secret} testId="two-factor-secret" />
                <FormFrame onSubmit={() => confirm.mutate()} gap="sm">
                  <TextInput
                    label={t('profile.twoFactorStep2')}
                    value={code}
                    onChange={(event) => setCode(event.currentTarget.value.replace(/[^\d]/g, '').slice(0, 6))}
                    inputMode="numeric"
                    autoComplete="one-time-code"
                    placeholder="123456"
                    maxLength={6}
                    classNames={{ input: 'vigil-mono-input' }}
                    error={fieldError(confirm.error, 'code')}
                    data-testid="two-factor-code"
                  />
                  <FormError error={confirm.error} shownFields={['code']} />
                  <FormActions
                    inline
                    submitLabel={t('profile.twoFactorConfirm')}
                    loading={confirm.isPending}
                    disabled={code.length !== 6}
                    submitTestId="two-factor-confirm"
                    onCancel={() => generate.reset()}
                  />
                </FormFrame>
              </Stack>
            </Group>
          </Paper>
        )}

        {user.twoFactorEnabled && !disabling && (
          <Group>
            <Button variant="light" color="red" disabled={locked} onClick={() => setDisabling(true)}>
              {t('profile.twoFactorTurnOff')}
            </Button>
          </Group>
        )}
        {user.twoFactorEnabled && disabling && (
          <FormFrame onSubmit={() => disable.mutate()} gap="sm" maw={420}>
            <PasswordInput
              label={t('profile.confirmWithPassword')}
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
              autoComplete="current-password"
              error={fieldError(disable.error, 'password')}
            />
            <FormError error={disable.error} shownFields={['password']} />
            <FormActions
              inline
              color="red"
              submitLabel={t('profile.twoFactorTurnOff')}
              loading={disable.isPending}
              disabled={!password}
              onCancel={() => setDisabling(false)}
            />
          </FormFrame>
        )}
      </Stack>
    </SettingsSection>
  );
}
