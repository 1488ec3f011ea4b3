import type { Translation } from '../../types';
import type { triage as english } from '../en/triage';

/** Russian texts shared by the triage pages. */
export const triage: Translation<typeof english> = {
  severity: { info: 'Инфо', low: 'Низкая', medium: 'Средняя', high: 'Высокая', critical: 'Критическая' },
  alertStatus: { new: 'Новый', in_progress: 'В работе', resolved: 'Решён', closed: 'Закрыт' },
  resolution: {
    true_positive: 'Подтверждённая угроза',
    false_positive: 'Ложное срабатывание',
    benign: 'Безопасная активность',
    duplicate: 'Дубликат',
  },
  source: { network: 'Сеть', endpoint: 'Хосты', mail: 'Почта' },
  observableKind: {
    ip: 'IP-адрес',
    host: 'Хост',
    user: 'Пользователь',
    domain: 'Домен',
    url: 'URL',
    hash: 'Хеш',
    file: 'Файл',
    email: 'Почтовый адрес',
  },
  incidentStatus: {
    open: 'Открыт',
    investigating: 'Расследуется',
    contained: 'Локализован',
    resolved: 'Решён',
    closed: 'Закрыт',
  },
  taskStatus: { todo: 'К выполнению', in_progress: 'В работе', done: 'Готово' },
  unassigned: 'Без исполнителя',
  me: 'Я',
  timeRange: {
    label: 'Время',
    any: 'За всё время',
    lastHour: 'Последний час',
    last24h: 'Последние 24 часа',
    last7d: 'Последние 7 дней',
    last30d: 'Последние 30 дней',
    custom: 'Свой период',
  },
  ruleMetadata: {
    signature_severity: 'Критичность сигнатуры',
    confidence: 'Достоверность',
    deployment: 'Место применения',
    attack_target: 'Цель атаки',
    affected_product: 'Уязвимый продукт',
    mitre_tactic_name: 'Тактика ATT&CK',
    mitre_technique_name: 'Техника ATT&CK',
    former_category: 'Прежняя категория',
    performance_impact: 'Нагрузка на сенсор',
    tag: 'Метки',
    created_at: 'Правило создано',
    updated_at: 'Правило обновлено',
  },
  assetLink: {
    open: 'Открыть актив {{name}}',
    criticality: { high: 'Важный', critical: 'Критичный' },
  },
  employeeLink: { open: 'Открыть сотрудника {{name}}' },
};
