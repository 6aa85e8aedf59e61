/**
 * MUI's useMediaQuery reads window.matchMedia, which jsdom lacks (then nothing matches: the phone layout). This
 * answers MUI's `(min-width:…px)` / `(max-width:…px)` queries as a window `width` px wide would; `resetWindowWidth`
 * takes it away again.
 */
export function showWindowOf(width: number) {
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    value: (query: string) => {
      const min = /min-width:\s*([\d.]+)px/.exec(query);
      const max = /max-width:\s*([\d.]+)px/.exec(query);
      return {
        matches: (!min || width >= Number(min[1])) && (!max || width <= Number(max[1])),
        media: query,
        onchange: null,
        addEventListener: () => {},
        removeEventListener: () => {},
        addListener: () => {},
        removeListener: () => {},
        dispatchEvent: () => false,
      };
    },
  });
}

export function resetWindowWidth() {
  Reflect.deleteProperty(window, 'matchMedia');
}
