import type { CurrentUser } from '@vigil/contract';

/**
 * Design tokens for both themes. Every colour the console paints with comes from here,
 * as a CSS variable (`--vigil-…`, see `cssVariables`) or through the Mantine theme.
 */

/** The themes the server keeps for a user. */
export type ThemeName = CurrentUser['theme'];

export const statusColorNames = ['green', 'yellow', 'orange', 'red', 'blue', 'purple', 'turquoise', 'grey'] as const;
export type StatusColor = (typeof statusColorNames)[number];

export const syntaxColorNames = [
  'keyword',
  'string',
  'number',
  'comment',
  'function',
  'variable',
  'operator',
  'punctuation',
  'property',
  'tag',
] as const;
export type SyntaxColor = (typeof syntaxColorNames)[number];

/** Surface levels 0 (lowest) to 6, or `blur` (translucent, over moving content). */
export const surfaceLevels = [0, 1, 2, 3, 4, 5, 6, 'blur'] as const;
export type SurfaceLevel = (typeof surfaceLevels)[number];

export const emphasisNames = ['high', 'medium', 'disabled'] as const;
export type Emphasis = (typeof emphasisNames)[number];

export interface Palette {
  /** The page behind everything. */
  background: string;
  /** Surface levels 0–6: each level a step lighter (dark) or further from the page (light). */
  surface: readonly [string, string, string, string, string, string, string];
  /** Translucent surface for bars over scrolling content (used with a backdrop blur). */
  surfaceBlur: string;
  border: string;
  primary: string;
  /** Hover/pressed shade of primary. */
  primaryStrong: string;
  secondary: string;
  /** The Vigil teal: identical in both themes. */
  brand: string;
  status: Record<StatusColor, string>;
  syntax: Record<SyntaxColor, string>;
  /** 17 series colours for charts, in the order series use them. */
  chart: readonly string[];
  /** The 4 colours of asset tags. */
  assetTag: readonly [string, string, string, string];
  text: Record<Emphasis, string>;
  shadowPopover: string;
}

const BRAND = '#1fc7b6';

export const palettes: Record<ThemeName, Palette> = {
  dark: {
    background: '#070b17',
    surface: ['#0b1122', '#10182d', '#152036', '#1a2741', '#202f4c', '#263757', '#2d4063'],
    surfaceBlur: 'rgba(16, 24, 45, 0.72)',
    border: 'rgba(148, 168, 214, 0.14)',
    primary: '#5b8cff',
    primaryStrong: '#3f73f0',
    secondary: '#8f9bbd',
    brand: BRAND,
    status: {
      green: '#3ccf8e',
      yellow: '#f2c94c',
      orange: '#ff9a4d',
      red: '#ff5d6c',
      blue: '#52a7ff',
      purple: '#a98bff',
      turquoise: '#2ed3d3',
      grey: '#8a93a8',
    },
    syntax: {
      keyword: '#c792ea',
      string: '#a5d6a7',
      number: '#f9ae58',
      comment: '#6b7894',
      function: '#82aaff',
      variable: '#e6edf7',
      operator: '#89ddff',
      punctuation: '#a6b0c8',
      property: '#7fdbca',
      tag: '#ff7a90',
    },
    chart: [
      '#5b8cff',
      '#1fc7b6',
      '#ffb547',
      '#ff6b81',
      '#a98bff',
      '#4fd1ff',
      '#9ad96b',
      '#ff8f5a',
      '#f06fc0',
      '#6ee7b7',
      '#c4a3ff',
      '#ffd166',
      '#7aa2f7',
      '#ef8354',
      '#48bfe3',
      '#b8c0ff',
      '#e9c46a',
    ],
    assetTag: ['#5b8cff', '#1fc7b6', '#ffb547', '#f06fc0'],
    text: {
      high: 'rgba(236, 242, 255, 0.94)',
      medium: 'rgba(204, 216, 240, 0.66)',
      disabled: 'rgba(204, 216, 240, 0.38)',
    },
    shadowPopover: '0 12px 32px rgba(0, 0, 0, 0.45), 0 2px 6px rgba(0, 0, 0, 0.3)',
  },
  light: {
    background: '#f3f5fa',
    surface: ['#ffffff', '#f8f9fc', '#eef1f7', '#ffffff', '#e6eaf3', '#dde3ee', '#d3dae8'],
    surfaceBlur: 'rgba(255, 255, 255, 0.76)',
    border: 'rgba(23, 37, 84, 0.12)',
    primary: '#2f62e6',
    primaryStrong: '#2250c7',
    secondary: '#5c6784',
    brand: BRAND,
    status: {
      green: '#15935c',
      yellow: '#a87b00',
      orange: '#d0650b',
      red: '#d42f45',
      blue: '#1b6ed6',
      purple: '#7048db',
      turquoise: '#0b9297',
      grey: '#687189',
    },
    syntax: {
      keyword: '#8a3fc7',
      string: '#2f7d32',
      number: '#b55d00',
      comment: '#7c859b',
      function: '#2257c9',
      variable: '#1d2433',
      operator: '#0b7a99',
      punctuation: '#4d566b',
      property: '#0f7f6e',
      tag: '#c2334d',
    },
    chart: [
      '#2f62e6',
      '#0fa595',
      '#e08e0b',
      '#e0445e',
      '#7a52e0',
      '#0aa0d6',
      '#5e9f2f',
      '#e06a2a',
      '#c23e96',
      '#22a776',
      '#9270e6',
      '#c99400',
      '#4a6fd1',
      '#c8612f',
      '#1b8fb8',
      '#7f8cde',
      '#b58b1f',
    ],
    assetTag: ['#2f62e6', '#0fa595', '#e08e0b', '#c23e96'],
    text: { high: 'rgba(12, 18, 36, 0.92)', medium: 'rgba(32, 42, 68, 0.68)', disabled: 'rgba(32, 42, 68, 0.4)' },
    shadowPopover: '0 12px 32px rgba(22, 34, 70, 0.16), 0 2px 6px rgba(22, 34, 70, 0.08)',
  },
};

/** Typography tokens: weight, size/line height. */
export const typographyNames = [
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'body1',
  'body2',
  'body3',
  'body4',
  'caption1',
  'caption2',
  'code1',
  'code2',
] as const;
export type TypographyName = (typeof typographyNames)[number];

export const FONT_FAMILY = "'Inter Variable', 'Inter', 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";
export const FONT_FAMILY_MONO =
  "'JetBrains Mono Variable', 'JetBrains Mono', 'DejaVu Sans Mono', Menlo, Consolas, monospace";

export const typography: Record<TypographyName, { weight: number; size: number; lineHeight: number; mono?: true }> = {
  h1: { weight: 650, size: 28, lineHeight: 36 },
  h2: { weight: 650, size: 22, lineHeight: 30 },
  h3: { weight: 600, size: 18, lineHeight: 26 },
  h4: { weight: 600, size: 16, lineHeight: 24 },
  h5: { weight: 600, size: 14, lineHeight: 20 },
  body1: { weight: 400, size: 15, lineHeight: 22 },
  body2: { weight: 400, size: 14, lineHeight: 20 },
  body3: { weight: 400, size: 13, lineHeight: 18 },
  body4: { weight: 400, size: 12, lineHeight: 16 },
  caption1: { weight: 500, size: 12, lineHeight: 16 },
  caption2: { weight: 500, size: 11, lineHeight: 14 },
  code1: { weight: 400, size: 13, lineHeight: 20, mono: true },
  code2: { weight: 400, size: 12, lineHeight: 16, mono: true },
};

export const textAlignments = ['left', 'center', 'right', 'justify', 'start', 'end'] as const;
export type TextAlign = (typeof textAlignments)[number];

/** The CSS variables of a theme, set on the document root. */
export function cssVariables(name: ThemeName): Record<string, string> {
  const palette = palettes[name];
  const variables: Record<string, string> = {
    '--vigil-background': palette.background,
    '--vigil-surface-blur': palette.surfaceBlur,
    '--vigil-border': palette.border,
    '--vigil-primary': palette.primary,
    '--vigil-primary-strong': palette.primaryStrong,
    '--vigil-secondary': palette.secondary,
    '--vigil-brand': palette.brand,
    '--vigil-text-high': palette.text.high,
    '--vigil-text-medium': palette.text.medium,
    '--vigil-text-disabled': palette.text.disabled,
    '--vigil-shadow-popover': palette.shadowPopover,
    '--vigil-font-family': FONT_FAMILY,
    '--vigil-font-family-mono': FONT_FAMILY_MONO,
  };
  palette.surface.forEach((colour, level) => (variables[`--vigil-surface-${level}`] = colour));
  for (const status of statusColorNames) variables[`--vigil-status-${status}`] = palette.status[status];
  for (const syntax of syntaxColorNames) variables[`--vigil-syntax-${syntax}`] = palette.syntax[syntax];
  palette.chart.forEach((colour, index) => (variables[`--vigil-chart-${index + 1}`] = colour));
  palette.assetTag.forEach((colour, index) => (variables[`--vigil-asset-tag-${index + 1}`] = colour));
  for (const name of typographyNames) {
    const token = typography[name];
    const family = token.mono ? 'var(--vigil-font-family-mono)' : 'var(--vigil-font-family)';
    variables[`--vigil-font-${name}`] = `${token.weight} ${token.size}px/${token.lineHeight}px ${family}`;
  }
  return variables;
}
