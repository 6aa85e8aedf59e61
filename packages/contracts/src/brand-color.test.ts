import { describe, expect, it } from 'vitest';
import {
  BRAND_TEXT_DARK,
  BRAND_TEXT_LIGHT,
  brandTextColor,
  contrastRatio,
  normalizeBrandColor,
  parseHexColor,
  zBrandColor,
} from './brand-color.ts';

describe('brand colour', () => {
  it('accepts #rrggbb in any case and answers it in lowercase', () => {
    expect(zBrandColor.parse('#1A73E8')).toBe('#1a73e8');
    expect(zBrandColor.parse(' #00ff7f ')).toBe('#00ff7f');
  });

  it.each(['red', '#fff', '#12345g', '#1234567', '1a73e8', 'rgb(0,0,0)', '', '#1a73e8;background:url(x)'])(
    'refuses %j',
    (value) => {
      expect(zBrandColor.safeParse(value).success).toBe(false);
    },
  );

  it('reads a stored colour only when it is one', () => {
    expect(normalizeBrandColor('#ABCDEF')).toBe('#abcdef');
    expect(normalizeBrandColor('javascript:alert(1)')).toBeNull();
    expect(normalizeBrandColor(null)).toBeNull();
  });

  it('computes WCAG 2.2 contrast ratios (the reference values)', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBeCloseTo(1, 5);
    // #767676 on white is the classic "just passes AA" grey (4.54:1).
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(contrastRatio('#777777', '#ffffff')).toBeLessThan(4.5);
    expect(contrastRatio('#fff', '#000')).toBeCloseTo(21, 5);
    expect(contrastRatio('teal', '#000')).toBeNull();
    expect(parseHexColor('#0a0b0c')).toEqual([10, 11, 12]);
  });

  it('puts white text on dark colours and near-black text on light ones', () => {
    expect(brandTextColor('#004a46')).toBe(BRAND_TEXT_LIGHT);
    expect(brandTextColor('#1a1a6e')).toBe(BRAND_TEXT_LIGHT);
    expect(brandTextColor('#ffcc00')).toBe(BRAND_TEXT_DARK);
    expect(brandTextColor('#ffffff')).toBe(BRAND_TEXT_DARK);
    // A mid red: white reads at 4.23:1, near-black at 4.47:1; the better one wins.
    expect(brandTextColor('#e53935')).toBe(BRAND_TEXT_DARK);
  });
});
