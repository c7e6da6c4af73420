import { useId } from 'react';
import { BRAND_GRADIENT, BRAND_HEART_PATH, heartTransform } from './brand-mark-shape';

/** The REME mark, drawn from the same shape as the favicon and app icons (brand-mark-shape.ts). */
export function BrandMark({ size = 28 }: { size?: number }) {
  const gradient = useId();
  return (
    <svg width={size} height={size} viewBox="0 0 512 512" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id={gradient} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor={BRAND_GRADIENT[0]} />
          <stop offset="1" stopColor={BRAND_GRADIENT[1]} />
        </linearGradient>
      </defs>
      <rect width="512" height="512" rx="112" fill={`url(#${gradient})`} />
      <path d={BRAND_HEART_PATH} fill="#fff" transform={heartTransform(1)} />
    </svg>
  );
}
