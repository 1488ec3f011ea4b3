import { createContext, useContext, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { applyTheme, getTheme, subscribeTheme } from './theme-store';
import { palettes, type Palette, type ThemeName } from './tokens';

export interface VigilThemeContext {
  theme: ThemeName;
  palette: Palette;
  /** Applies a theme now; false (and a console warning) for an unknown one. */
  setTheme: (value: unknown) => boolean;
}

const ThemeContext = createContext<VigilThemeContext | null>(null);

/**
 * The theme plugin: the current theme and its palette for `useVigilTheme`. The tokens reach the
 * page as CSS variables (theme-store); the main application adds Mantine on top (`MantineThemeProvider`).
 */
export function VigilThemeProvider({ children }: { children: ReactNode }) {
  const theme = useSyncExternalStore(subscribeTheme, getTheme, getTheme);
  const value = useMemo<VigilThemeContext>(() => ({ theme, palette: palettes[theme], setTheme: applyTheme }), [theme]);
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

/** The current theme and its palette. Used outside `VigilThemeProvider` it throws. */
export function useVigilTheme(): VigilThemeContext {
  const context = useContext(ThemeContext);
  if (!context) throw new Error('Theme plugin is not installed');
  return context;
}
