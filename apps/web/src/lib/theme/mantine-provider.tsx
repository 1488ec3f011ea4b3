import { MantineProvider } from '@mantine/core';
import type { ReactNode } from 'react';
import { cssVariablesResolver, mantineTheme } from './mantine-theme';
import { useVigilTheme } from './theme-provider';

/** Mantine in the current theme (the main application's components library). */
export function MantineThemeProvider({ children }: { children: ReactNode }) {
  const { theme } = useVigilTheme();
  return (
    <MantineProvider theme={mantineTheme} forceColorScheme={theme} cssVariablesResolver={cssVariablesResolver}>
      {children}
    </MantineProvider>
  );
}
