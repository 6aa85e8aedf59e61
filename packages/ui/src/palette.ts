/** Colour families of the console (spec §9, REFERENCE-PRODUCT theme values). Shade 600 is each family's "main". */
export type Shade = 25 | 50 | 100 | 200 | 300 | 400 | 500 | 600 | 700 | 800 | 900;
export type ColorFamily = Record<Shade, string>;

export const teal: ColorFamily = {
  25: '#f3f9f8',
  50: '#e6f2f1',
  100: '#cce4e3',
  200: '#99c9c7',
  300: '#66aeab',
  400: '#33938f',
  500: '#1a6f6b',
  600: '#004a46',
  700: '#003b38',
  800: '#002c2a',
  900: '#001e1c',
};

export const grey: ColorFamily = {
  25: '#fcfcfd',
  50: '#f9fafb',
  100: '#f2f4f7',
  200: '#eaecf0',
  300: '#d0d5dd',
  400: '#98a2b3',
  500: '#667085',
  600: '#475467',
  700: '#344054',
  800: '#1d2939',
  900: '#101828',
};

export const greyBlue: ColorFamily = {
  25: '#fcfcfd',
  50: '#f8f9fc',
  100: '#eaecf5',
  200: '#d5d9eb',
  300: '#afb5d9',
  400: '#717bbc',
  500: '#4e5ba6',
  600: '#3e4784',
  700: '#363f72',
  800: '#293056',
  900: '#101323',
};

export const red: ColorFamily = {
  25: '#fffbfa',
  50: '#fef3f2',
  100: '#fee4e2',
  200: '#fecdca',
  300: '#fda29b',
  400: '#f97066',
  500: '#f04438',
  600: '#d92d20',
  700: '#b42318',
  800: '#912018',
  900: '#7a271a',
};

export const green: ColorFamily = {
  25: '#f6fef9',
  50: '#ecfdf3',
  100: '#d1fadf',
  200: '#a6f4c5',
  300: '#6ce9a6',
  400: '#32d583',
  500: '#12b76a',
  600: '#039855',
  700: '#027a48',
  800: '#05603a',
  900: '#054f31',
};

export const amber: ColorFamily = {
  25: '#fffcf5',
  50: '#fffaeb',
  100: '#fef0c7',
  200: '#fedf89',
  300: '#fec84b',
  400: '#fdb022',
  500: '#f79009',
  600: '#dc6803',
  700: '#b54708',
  800: '#93370d',
  900: '#7a2e0e',
};

export const purple: ColorFamily = {
  25: '#fafaff',
  50: '#f4f3ff',
  100: '#ebe9fe',
  200: '#d9d6fe',
  300: '#bdb4fe',
  400: '#9b8afb',
  500: '#7a5af8',
  600: '#6938ef',
  700: '#5925dc',
  800: '#4a1fb8',
  900: '#3e1c96',
};

export const burgundy: ColorFamily = {
  25: '#fefafb',
  50: '#fbeef0',
  100: '#f6dce1',
  200: '#edb9c3',
  300: '#e096a4',
  400: '#cc6378',
  500: '#bf4a5f',
  600: '#b03046',
  700: '#8f2639',
  800: '#6e1d2c',
  900: '#4d141f',
};

export const neutral: ColorFamily = {
  25: '#ffffff',
  50: '#fafafa',
  100: '#f5f5f5',
  200: '#e5e5e5',
  300: '#d4d4d4',
  400: '#a3a3a3',
  500: '#737373',
  600: '#525252',
  700: '#404040',
  800: '#262626',
  900: '#171717',
};
