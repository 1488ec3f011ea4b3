// @vitest-environment happy-dom
import { renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useVigilTheme, VigilThemeProvider } from './theme-provider';
import { applyTheme, getTheme } from './theme-store';
import { cssVariables, palettes, statusColorNames } from './tokens';

describe('themes and design tokens', () => {
  it('refuses an unknown theme with a console warning and keeps the current one', () => {
    expect(applyTheme('light')).toBe(true);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(applyTheme('sepia')).toBe(false);
    expect(warn).toHaveBeenCalledWith('Unknown theme "sepia" refused; the theme stays "light".');
    expect(getTheme()).toBe('light');
    warn.mockRestore();
    expect(applyTheme('dark')).toBe(true);
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(document.documentElement.style.getPropertyValue('--vigil-background')).toBe(palettes.dark.background);
  });

  it('raises "Theme plugin is not installed" without the provider', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => renderHook(() => useVigilTheme())).toThrow('Theme plugin is not installed');
    vi.restoreAllMocks();
    const { result } = renderHook(() => useVigilTheme(), { wrapper: VigilThemeProvider });
    expect(result.current.theme).toBe('dark');
  });

  it('has every design token in both themes, the brand the same in both', () => {
    for (const name of ['dark', 'light'] as const) {
      const palette = palettes[name];
      expect(palette.surface).toHaveLength(7);
      expect(palette.chart).toHaveLength(17);
      expect(palette.assetTag).toHaveLength(4);
      expect(Object.keys(palette.status).sort()).toEqual([...statusColorNames].sort());
      const variables = cssVariables(name);
      for (const key of [
        '--vigil-surface-6',
        '--vigil-surface-blur',
        '--vigil-chart-17',
        '--vigil-asset-tag-4',
        '--vigil-font-code2',
      ]) {
        expect(variables[key], key).toBeTruthy();
      }
    }
    expect(palettes.dark.brand).toBe(palettes.light.brand);
  });
});
