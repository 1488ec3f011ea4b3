import type { Translation } from '../../types';
import type { sso as english } from '../en/sso';

/** Russian texts of the `sso` namespace (see ../ru.ts). */
export const sso: Translation<typeof english> = {
  errors: {
    unavailable: 'Единый вход для вашей компании сейчас недоступен.',
    invalid_state: 'Попытка единого входа устарела или начата в другом браузере. Повторите попытку.',
    denied: 'Единый вход отменён.',
    provider_error: 'Поставщик удостоверений отклонил вход. Повторите попытку или обратитесь к администратору.',
    email_missing: 'Поставщик удостоверений не передал подтверждённый адрес e-mail.',
    no_account: 'Для этого удостоверения нет учётной записи Vigil. Попросите администратора создать её.',
    account_disabled: 'Эта учётная запись отключена.',
    subject_mismatch: 'Эта учётная запись связана с другим удостоверением у вашего поставщика.',
    server_error: 'Vigil не удалось завершить единый вход. Повторите попытку.',
  },
};
