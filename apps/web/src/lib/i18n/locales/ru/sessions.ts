import type { Translation } from '../../types';
import type { sessions as english } from '../en/sessions';

/** Russian texts of the `sessions` namespace (see ../ru.ts). */
export const sessions: Translation<typeof english> = {
  title: 'Мои сеансы',
  subtitle: 'Где выполнен вход. Завершите сеанс, который вы не узнаёте.',
  device: 'Устройство',
  ip: 'IP-адрес',
  created: 'Вход',
  lastSeen: 'Последняя активность',
  thisSession: 'Этот сеанс',
  browserOn: '{{browser}}, {{os}}',
  unknownDevice: 'Неизвестное устройство',
  end: 'Завершить',
  endOne: 'Завершить сеанс',
  endOneConfirm: 'Браузер или скрипт с этим сеансом сразу выйдет из системы.',
  endOthers: 'Завершить остальные сеансы',
  endOthersConfirm: 'Все сеансы, кроме этого, сразу завершатся.',
  ended: 'Завершено сеансов: {{count}}.',
  empty: 'Открытых сеансов нет.',
  loadFailed: 'Не удалось загрузить сеансы.',
};
