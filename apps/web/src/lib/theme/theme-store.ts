import { cssVariables, type ThemeName } from './tokens';

/** The themes the console has, light and dark; anything else is refused. */
export const themeNames = ['dark', 'light'] as const satisfies readonly ThemeName[];
export const DEFAULT_THEME: ThemeName = 'dark';

let current: ThemeName = DEFAULT_THEME;
const listeners = new Set<() => void>();

export function isThemeName(value: unknown): value is ThemeName {
  return typeof value === 'string' && (themeNames as readonly string[]).includes(value);
}

/**
 * Applies a theme at run time. An unknown value is refused with a console warning and the current
 * theme stays. Returns whether the theme was applied.
 */
export function applyTheme(value: unknown): boolean {
  if (!isThemeName(value)) {
    console.warn(`Unknown theme "${String(value)}" refused; the theme stays "${current}".`);
    return false;
  }
  if (value !== current) {
    current = value;
    for (const listener of listeners) listener();
  }
  if (typeof document !== 'undefined') {
    // The tokens as CSS variables on the root, for everything drawn without Mantine (the sign-in screens).
    const root = document.documentElement;
    root.dataset.theme = value;
    root.style.colorScheme = value;
    for (const [name, colour] of Object.entries(cssVariables(value))) root.style.setProperty(name, colour);
  }
  return true;
}

export function getTheme(): ThemeName {
  return current;
}

export function subscribeTheme(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
