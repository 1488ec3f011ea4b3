import type { Translation } from '../../types';
import type { endpointValues as englishEndpoint, networkValues as englishNetwork } from '../en/event-values';

/** Russian names of the codes sensors send (see ../en/event-values.ts). */
export const networkValues: Translation<typeof englishNetwork> = {
  eventType: {
    alert: 'Сработка',
    dns: 'DNS',
    http: 'HTTP',
    tls: 'TLS',
    fileinfo: 'Файл',
    flow: 'Поток',
    anomaly: 'Аномалия',
  },
  flowState: {
    new: 'Новое',
    established: 'Установлено',
    closed: 'Закрыто',
    bypassed: 'Пропущено без анализа',
  },
  flowReason: {
    timeout: 'Тайм-аут',
    forced: 'Принудительно',
    shutdown: 'Остановка сенсора',
    unknown: 'Неизвестно',
  },
  fileState: {
    CLOSED: 'Передан целиком',
    OPEN: 'Передаётся',
    TRUNCATED: 'Обрезан',
    ERROR: 'Ошибка',
    UNKNOWN: 'Неизвестно',
  },
  alertAction: {
    allowed: 'Пропуск',
    blocked: 'Блокировка',
  },
  dnsType: {
    query: 'Запрос',
    answer: 'Ответ',
  },
  anomalyType: {
    decode: 'Декодирование пакета',
    stream: 'Сборка потока',
    applayer: 'Прикладной уровень',
  },
};

export const endpointValues: Translation<typeof englishEndpoint> = {
  categories: {
    authentication: 'Аутентификация',
    configuration: 'Конфигурация',
    database: 'База данных',
    driver: 'Драйвер',
    file: 'Файл',
    host: 'Хост',
    iam: 'Учётные записи и группы',
    intrusion_detection: 'Обнаружение вторжений',
    library: 'Библиотека',
    malware: 'Вредоносное ПО',
    network: 'Сеть',
    package: 'Пакет',
    process: 'Процесс',
    registry: 'Реестр',
    session: 'Сеанс',
    web: 'Веб',
  },
};
