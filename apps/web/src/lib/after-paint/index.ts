export { useAfterFirstPaint } from './after-paint';
