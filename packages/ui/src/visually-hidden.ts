/**
 * Styles that hide text from sight but not from screen readers (the usual "visually hidden" pattern): names
 * of icon-only controls, headers of action columns, the purpose of a control whose visible text is its value.
 */
export const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  // Strings: in `sx`, a bare 1 would mean 100% and -1 a negative spacing unit.
  height: '1px',
  width: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
} as const;
