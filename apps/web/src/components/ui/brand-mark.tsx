/** The Vigil shield. Decorative: the product name always appears beside it as text. */
export function BrandMark({ size = 28 }: { size?: number }) {
  return (
    <svg className="brand-mark" width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <path
        d="M16 4.5 6 8.5v7.2c0 6.1 4.3 10.5 10 12.1 5.7-1.6 10-6 10-12.1V8.5L16 4.5Z"
        fill="currentColor"
        fillOpacity="0.14"
        stroke="currentColor"
        strokeWidth="2.2"
        strokeLinejoin="round"
      />
      <path
        d="m11.6 15.8 3.1 3.1 5.9-6.1"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
