import { useId } from 'react';

/** The REME mark (a heart on the aurora gradient), the same drawing as the favicon and app icons. */
export function BrandMark({ size = 28 }: { size?: number }) {
  const gradient = useId();
  return (
    <svg width={size} height={size} viewBox="0 0 512 512" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id={gradient} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#7a5cf0" />
          <stop offset="1" stopColor="#1f8f8a" />
        </linearGradient>
      </defs>
      <rect width="512" height="512" rx="112" fill={`url(#${gradient})`} />
      <path
        d="M256 390C166 328 120 278 120 218c0-44 34-78 76-78 28 0 48 14 60 36 12-22 32-36 60-36 42 0 76 34 76 78 0 60-46 110-136 172Z"
        fill="#fff"
      />
    </svg>
  );
}
