export const WALLET_LANGUAGES = ['en', 'ja', 'es', 'ko'] as const;
export type WalletLanguage = (typeof WALLET_LANGUAGES)[number];

export const messages: Record<WalletLanguage, { title: string; body: string; soon: string }> = {
  en: {
    title: 'Wallet',
    body: 'This is where holders will receive and present their digital credentials.',
    soon: 'Coming soon',
  },
  ja: {
    title: 'ウォレット',
    body: 'ここでデジタル証明書を受け取ったり、提示したりできるようになります。',
    soon: '近日公開',
  },
  es: {
    title: 'Billetera',
    body: 'Aquí podrás recibir y presentar tus credenciales digitales.',
    soon: 'Próximamente',
  },
  ko: {
    title: '지갑',
    body: '이곳에서 디지털 자격증명을 받고 제시할 수 있게 됩니다.',
    soon: '곧 제공됩니다',
  },
};

const TAG = /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/;

/** `?lang`, then the browser's languages, then English; anything that is not a language tag is ignored. */
export function pickLanguage(search: string, browser: readonly string[]): WalletLanguage {
  for (const candidate of [new URLSearchParams(search).get('lang'), ...browser]) {
    if (!candidate || !TAG.test(candidate)) continue;
    const base = candidate.split('-')[0]?.toLowerCase();
    const found = WALLET_LANGUAGES.find((language) => language === base);
    if (found) return found;
  }
  return 'en';
}
