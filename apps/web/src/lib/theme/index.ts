export { VigilThemeProvider, useVigilTheme } from './theme-provider';
export type { VigilThemeContext } from './theme-provider';
export { applyTheme, DEFAULT_THEME, getTheme, isThemeName, subscribeTheme, themeNames } from './theme-store';
export * from './tokens';
