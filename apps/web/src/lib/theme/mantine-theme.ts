import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';
import { cssVariables, FONT_FAMILY, FONT_FAMILY_MONO, palettes, typography } from './tokens';

const vigilBlue: MantineColorsTuple = [
  '#edf2ff',
  '#d9e3ff',
  '#b3c7ff',
  '#8aa9ff',
  '#6b93ff',
  '#5b8cff',
  '#2f62e6',
  '#2250c7',
  '#1d44a8',
  '#173789',
];

/** Mantine's dark scale, bent to the navy of the dark palette (Mantine reads inputs, borders and hovers from it). */
const navy: MantineColorsTuple = [
  '#dfe6f5',
  '#b8c2db',
  '#8f9bbd',
  '#5f6c8f',
  '#33456b',
  '#263757',
  '#152036',
  '#0b1122',
  '#070b17',
  '#04070f',
];

const brandTeal: MantineColorsTuple = [
  '#e3fbf8',
  '#c4f3ee',
  '#93e8de',
  '#5ddccd',
  '#35d0c0',
  '#1fc7b6',
  '#15a797',
  '#0f8579',
  '#0a645b',
  '#06443e',
];

const px = (value: number) => `${value}px`;

/** The Mantine theme over the design tokens. */
export const mantineTheme = createTheme({
  primaryColor: 'vigil',
  primaryShade: { light: 6, dark: 5 },
  colors: { vigil: vigilBlue, dark: navy, brand: brandTeal },
  fontFamily: FONT_FAMILY,
  fontFamilyMonospace: FONT_FAMILY_MONO,
  defaultRadius: 'md',
  radius: { xs: '3px', sm: '5px', md: '7px', lg: '10px', xl: '14px' },
  fontSizes: {
    xs: px(typography.body4.size),
    sm: px(typography.body3.size),
    md: px(typography.body2.size),
    lg: px(typography.body1.size),
    xl: px(typography.h4.size),
  },
  headings: {
    fontFamily: FONT_FAMILY,
    fontWeight: '650',
    sizes: {
      h1: { fontSize: px(typography.h1.size), lineHeight: px(typography.h1.lineHeight) },
      h2: { fontSize: px(typography.h2.size), lineHeight: px(typography.h2.lineHeight) },
      h3: { fontSize: px(typography.h3.size), lineHeight: px(typography.h3.lineHeight) },
      h4: { fontSize: px(typography.h4.size), lineHeight: px(typography.h4.lineHeight) },
      h5: { fontSize: px(typography.h5.size), lineHeight: px(typography.h5.lineHeight) },
    },
  },
  cursorType: 'pointer',
  focusRing: 'auto',
});

function mantineOverrides(name: 'dark' | 'light'): Record<string, string> {
  const palette = palettes[name];
  return {
    '--mantine-color-body': palette.background,
    '--mantine-color-text': palette.text.high,
    '--mantine-color-dimmed': palette.text.medium,
    '--mantine-color-default': palette.surface[2],
    '--mantine-color-default-hover': palette.surface[4],
    '--mantine-color-default-color': palette.text.high,
    '--mantine-color-default-border': palette.border,
    '--mantine-color-placeholder': palette.text.disabled,
  };
}

/** The design tokens as CSS variables, one set per colour scheme. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { ...cssVariables('light'), ...mantineOverrides('light') },
  dark: { ...cssVariables('dark'), ...mantineOverrides('dark') },
});
