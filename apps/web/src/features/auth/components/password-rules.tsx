import { useTranslation } from '../../../lib/i18n';

/** The shortest password the server accepts by default (PASSWORD_MIN_LENGTH). */
export const PASSWORD_MIN_LENGTH = 10;

export interface PasswordRuleInput {
  password: string;
  repeat: string;
  username: string;
  /** The current password, when the screen asks for it: the new one must differ. */
  current?: string;
}

type RuleKey = 'length' | 'notDigits' | 'noUsername' | 'differs' | 'matches';

/** The server's password policy, checked as the user types (the server checks it again). */
export function passwordRules(input: PasswordRuleInput): { key: RuleKey; met: boolean }[] {
  const { password, repeat, username, current } = input;
  const name = username.trim().toLowerCase();
  const rules: { key: RuleKey; met: boolean }[] = [
    { key: 'length', met: password.length >= PASSWORD_MIN_LENGTH },
    { key: 'notDigits', met: password !== '' && !/^\d+$/.test(password) && password.trim() !== '' },
    { key: 'noUsername', met: password !== '' && (name.length < 3 || !password.toLowerCase().includes(name)) },
  ];
  if (current !== undefined) rules.push({ key: 'differs', met: password !== '' && password !== current });
  rules.push({ key: 'matches', met: password !== '' && password === repeat });
  return rules;
}

/** The rules a new password must meet, each ticked once it is. */
export function PasswordRules(props: PasswordRuleInput) {
  const { t } = useTranslation();
  return (
    <div className="vigil-rules">
      <p className="vigil-rules__title">{t('auth.rules.title')}</p>
      <ul className="vigil-rules__list" aria-label={t('auth.rules.title')}>
        {passwordRules(props).map((rule) => (
          <li key={rule.key} data-met={rule.met}>
            <span className="vigil-rules__mark" aria-hidden="true">
              {rule.met ? '✓' : ''}
            </span>
            {t(`auth.rules.${rule.key}`, { min: PASSWORD_MIN_LENGTH })}
          </li>
        ))}
      </ul>
    </div>
  );
}
