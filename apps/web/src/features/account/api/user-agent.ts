/** A user agent as a person reads it: "Chrome 131 on Windows". Unknown agents are shown as they are. */
export interface ReadableAgent {
  browser: string | null;
  os: string | null;
  mobile: boolean;
}

const browsers: [RegExp, string][] = [
  [/Edg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/OPR\/(\d+)/, 'Opera'],
  [/YaBrowser\/(\d+)/, 'Yandex Browser'],
  [/Firefox\/(\d+)/, 'Firefox'],
  [/FxiOS\/(\d+)/, 'Firefox'],
  [/CriOS\/(\d+)/, 'Chrome'],
  [/HeadlessChrome\/(\d+)/, 'Headless Chrome'],
  [/Chrome\/(\d+)/, 'Chrome'],
  [/Version\/(\d+)[\d.]* .*Safari\//, 'Safari'],
  [/^curl\/([\d.]+)/, 'curl'],
  [/^node(?:-fetch)?\/?([\d.]*)/i, 'Node.js'],
  [/python-requests\/([\d.]+)/, 'Python requests'],
];

const systems: [RegExp, string][] = [
  [/Windows NT 10/, 'Windows'],
  [/Windows NT/, 'Windows'],
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Android/, 'Android'],
  [/CrOS/, 'ChromeOS'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Linux/, 'Linux'],
];

export function readableAgent(userAgent: string): ReadableAgent {
  let browser: string | null = null;
  for (const [pattern, name] of browsers) {
    const match = pattern.exec(userAgent);
    if (match) {
      browser = match[1] ? `${name} ${match[1]}` : name;
      break;
    }
  }
  const os = systems.find(([pattern]) => pattern.test(userAgent))?.[1] ?? null;
  return { browser, os, mobile: /Mobile|Android|iPhone/.test(userAgent) };
}
