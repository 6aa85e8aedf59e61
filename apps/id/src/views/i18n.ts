export const LOCALES = ['en', 'ja', 'es', 'ko'] as const;
export type Locale = (typeof LOCALES)[number];

export const LOCALE_NAMES: Record<Locale, string> = { en: 'English', ja: '日本語', es: 'Español', ko: '한국어' };

const en = {
  appName: 'Account center',
  language: 'Language',
  signInTitle: 'Sign in',
  signInSubtitle: 'Sign in to continue.',
  signInSubtitleClient: 'Sign in to continue to {client}.',
  login: 'Email or username',
  password: 'Password',
  signInButton: 'Sign in',
  noAccount: "Don't have an account?",
  createAccountLink: 'Create an account',
  signUpTitle: 'Create your account',
  signUpSubtitle: 'One account for every app of the platform.',
  firstName: 'First name',
  lastName: 'Last name',
  username: 'Username',
  email: 'Email',
  passwordHint: 'At least 8 characters with lowercase, uppercase and a special character',
  signUpButton: 'Create account',
  haveAccount: 'Already have an account?',
  signInLink: 'Sign in',
  organizationTitle: 'Create your organization',
  organizationSubtitle: 'Your organization issues and verifies credentials. You can also create it later.',
  organizationName: 'Organization name',
  organizationDescription: 'Description (optional)',
  organizationButton: 'Create organization',
  skip: 'Skip for now',
  cancel: 'Cancel',
  accountTitle: 'Your account',
  signedInAs: 'Signed in as',
  yourOrganizations: 'Your organizations',
  noOrganizations: "You don't belong to any organization yet.",
  createOrganizationLink: 'Create an organization',
  changePasswordLink: 'Change password',
  signOutLink: 'Sign out',
  passwordTitle: 'Change password',
  passwordSubtitle: 'Choose a new password for your account.',
  currentPassword: 'Current password',
  newPassword: 'New password',
  confirmPassword: 'Confirm new password',
  passwordButton: 'Change password',
  passwordChanged: 'Your password has been changed.',
  otherDevicesSignedOut: 'You have been signed out on your other devices; sign in there again with your new password.',
  backToAccount: 'Back to your account',
  logoutTitle: 'Sign out?',
  logoutText:
    'You will be signed out of the account center on this device, and of the apps you signed in to with it here, such as the console. Your other devices stay signed in.',
  logoutButton: 'Sign out',
  stayButton: 'Stay signed in',
  signedOutTitle: 'You are signed out',
  signedOutText: 'You have signed out of your account.',
  signInAgain: 'Sign in again',
  errorTitle: 'Something went wrong',
  errorText: 'The page could not be shown. Please try again.',
  expiredTitle: 'This page has expired',
  expiredText: 'The sign-in request has expired or was already completed. Go back to the app and start again.',
  forbiddenTitle: 'This form has expired',
  forbiddenText: 'For your security the form could not be sent. Go back, reload the page and try again.',
  notFoundTitle: 'Page not found',
  notFoundText: 'The page you are looking for does not exist.',
  goToAccount: 'Go to your account',
  errInvalidCredentials: 'Incorrect email/username or password',
  errTooManyAttempts: 'Too many failed attempts. Please wait a few minutes and try again.',
  errRequired: 'This field is required',
  errEmail: 'Must be a valid email',
  errUsername: 'Use 3 to 32 letters, digits, dots, hyphens or underscores',
  errUsernameTaken: 'This username is already taken',
  errEmailTaken: 'An account with this email already exists',
  errPasswordWeak: 'The password must have at least 8 characters with lowercase, uppercase and a special character',
  errPasswordMismatch: 'The passwords do not match',
  errCurrentPassword: 'The current password is incorrect',
  errTooLong: 'This value is too long',
  errOrganization: 'An error occurred in creating your organization',
};

export type MessageKey = keyof typeof en;
export const MESSAGE_KEYS = Object.keys(en) as MessageKey[];
type Messages = Record<MessageKey, string>;

const ja: Messages = {
  appName: 'アカウントセンター',
  language: '言語',
  signInTitle: 'ログイン',
  signInSubtitle: 'ログインして続行してください。',
  signInSubtitleClient: 'ログインして {client} に進みます。',
  login: 'メールアドレスまたはユーザー名',
  password: 'パスワード',
  signInButton: 'ログイン',
  noAccount: 'アカウントをお持ちでない方は',
  createAccountLink: 'アカウントを作成',
  signUpTitle: 'アカウントを作成',
  signUpSubtitle: 'ひとつのアカウントで、プラットフォームのすべてのアプリを利用できます。',
  firstName: '名',
  lastName: '姓',
  username: 'ユーザー名',
  email: 'メールアドレス',
  passwordHint: '8文字以上で、小文字・大文字・記号をそれぞれ1文字以上含めてください',
  signUpButton: 'アカウントを作成',
  haveAccount: 'すでにアカウントをお持ちの方は',
  signInLink: 'ログイン',
  organizationTitle: '組織を作成',
  organizationSubtitle: '組織として証明書の発行と検証を行います。組織はあとから作成することもできます。',
  organizationName: '組織名',
  organizationDescription: '説明（任意）',
  organizationButton: '組織を作成',
  skip: 'あとで作成する',
  cancel: 'キャンセル',
  accountTitle: 'アカウント',
  signedInAs: 'ログイン中のアカウント',
  yourOrganizations: '所属している組織',
  noOrganizations: 'まだどの組織にも所属していません。',
  createOrganizationLink: '組織を作成',
  changePasswordLink: 'パスワードを変更',
  signOutLink: 'ログアウト',
  passwordTitle: 'パスワードの変更',
  passwordSubtitle: 'アカウントの新しいパスワードを設定してください。',
  currentPassword: '現在のパスワード',
  newPassword: '新しいパスワード',
  confirmPassword: '新しいパスワード（確認）',
  passwordButton: 'パスワードを変更',
  passwordChanged: 'パスワードを変更しました。',
  otherDevicesSignedOut: 'ほかのデバイスではログアウトしました。新しいパスワードで再度ログインしてください。',
  backToAccount: 'アカウントに戻る',
  logoutTitle: 'ログアウトしますか？',
  logoutText:
    'このデバイスでアカウントセンターからログアウトします。このデバイスでアカウントセンターを使ってログインしたアプリ（コンソールなど）からもログアウトします。ほかのデバイスはログインしたままです。',
  logoutButton: 'ログアウト',
  stayButton: 'ログインしたままにする',
  signedOutTitle: 'ログアウトしました',
  signedOutText: 'アカウントからログアウトしました。',
  signInAgain: 'もう一度ログイン',
  errorTitle: 'エラーが発生しました',
  errorText: 'ページを表示できませんでした。もう一度お試しください。',
  expiredTitle: 'このページの有効期限が切れました',
  expiredText: 'ログインのリクエストが期限切れか、すでに完了しています。アプリに戻って最初からやり直してください。',
  forbiddenTitle: 'フォームの有効期限が切れました',
  forbiddenText:
    'セキュリティのため、フォームを送信できませんでした。前のページに戻り、再読み込みしてからもう一度お試しください。',
  notFoundTitle: 'ページが見つかりません',
  notFoundText: 'お探しのページは存在しません。',
  goToAccount: 'アカウントへ移動',
  errInvalidCredentials: 'メールアドレス/ユーザー名またはパスワードが正しくありません',
  errTooManyAttempts: 'ログインの失敗が続いたため、一時的にロックされています。数分後にもう一度お試しください。',
  errRequired: 'この項目は必須です',
  errEmail: '有効なメールアドレスを入力してください',
  errUsername: '3〜32文字の英数字、ピリオド、ハイフン、アンダースコアを使用してください',
  errUsernameTaken: 'このユーザー名はすでに使われています',
  errEmailTaken: 'このメールアドレスのアカウントはすでに存在します',
  errPasswordWeak: 'パスワードは8文字以上で、小文字・大文字・記号をそれぞれ1文字以上含める必要があります',
  errPasswordMismatch: 'パスワードが一致しません',
  errCurrentPassword: '現在のパスワードが正しくありません',
  errTooLong: '入力が長すぎます',
  errOrganization: '組織の作成中にエラーが発生しました',
};

const es: Messages = {
  appName: 'Centro de cuentas',
  language: 'Idioma',
  signInTitle: 'Iniciar sesión',
  signInSubtitle: 'Inicia sesión para continuar.',
  signInSubtitleClient: 'Inicia sesión para continuar a {client}.',
  login: 'Correo electrónico o nombre de usuario',
  password: 'Contraseña',
  signInButton: 'Iniciar sesión',
  noAccount: '¿No tienes una cuenta?',
  createAccountLink: 'Crear una cuenta',
  signUpTitle: 'Crea tu cuenta',
  signUpSubtitle: 'Una sola cuenta para todas las aplicaciones de la plataforma.',
  firstName: 'Nombre',
  lastName: 'Apellidos',
  username: 'Nombre de usuario',
  email: 'Correo electrónico',
  passwordHint: 'Al menos 8 caracteres, con minúsculas, mayúsculas y un carácter especial',
  signUpButton: 'Crear cuenta',
  haveAccount: '¿Ya tienes una cuenta?',
  signInLink: 'Inicia sesión',
  organizationTitle: 'Crea tu organización',
  organizationSubtitle: 'Tu organización emite y verifica credenciales. También puedes crearla más tarde.',
  organizationName: 'Nombre de la organización',
  organizationDescription: 'Descripción (opcional)',
  organizationButton: 'Crear organización',
  skip: 'Omitir por ahora',
  cancel: 'Cancelar',
  accountTitle: 'Tu cuenta',
  signedInAs: 'Has iniciado sesión como',
  yourOrganizations: 'Tus organizaciones',
  noOrganizations: 'Todavía no perteneces a ninguna organización.',
  createOrganizationLink: 'Crear una organización',
  changePasswordLink: 'Cambiar contraseña',
  signOutLink: 'Cerrar sesión',
  passwordTitle: 'Cambiar contraseña',
  passwordSubtitle: 'Elige una nueva contraseña para tu cuenta.',
  currentPassword: 'Contraseña actual',
  newPassword: 'Nueva contraseña',
  confirmPassword: 'Confirma la nueva contraseña',
  passwordButton: 'Cambiar contraseña',
  passwordChanged: 'Tu contraseña se ha cambiado.',
  otherDevicesSignedOut:
    'Se ha cerrado tu sesión en tus otros dispositivos; vuelve a iniciar sesión en ellos con tu nueva contraseña.',
  backToAccount: 'Volver a tu cuenta',
  logoutTitle: '¿Cerrar sesión?',
  logoutText:
    'Se cerrará tu sesión en el centro de cuentas en este dispositivo y en las aplicaciones en las que entraste con él aquí, como la consola. Tus otros dispositivos seguirán con la sesión iniciada.',
  logoutButton: 'Cerrar sesión',
  stayButton: 'Mantener la sesión',
  signedOutTitle: 'Has cerrado sesión',
  signedOutText: 'Se ha cerrado la sesión de tu cuenta.',
  signInAgain: 'Volver a iniciar sesión',
  errorTitle: 'Algo salió mal',
  errorText: 'No se pudo mostrar la página. Inténtalo de nuevo.',
  expiredTitle: 'Esta página ha caducado',
  expiredText:
    'La solicitud de inicio de sesión ha caducado o ya se completó. Vuelve a la aplicación y empieza de nuevo.',
  forbiddenTitle: 'Este formulario ha caducado',
  forbiddenText:
    'Por tu seguridad, no se pudo enviar el formulario. Vuelve atrás, recarga la página e inténtalo de nuevo.',
  notFoundTitle: 'Página no encontrada',
  notFoundText: 'La página que buscas no existe.',
  goToAccount: 'Ir a tu cuenta',
  errInvalidCredentials: 'Correo electrónico/nombre de usuario o contraseña incorrectos',
  errTooManyAttempts: 'Demasiados intentos fallidos. Espera unos minutos y vuelve a intentarlo.',
  errRequired: 'Este campo es obligatorio',
  errEmail: 'Introduce un correo electrónico válido',
  errUsername: 'Usa de 3 a 32 letras, números, puntos, guiones o guiones bajos',
  errUsernameTaken: 'Este nombre de usuario ya está en uso',
  errEmailTaken: 'Ya existe una cuenta con este correo electrónico',
  errPasswordWeak: 'La contraseña debe tener al menos 8 caracteres, con minúsculas, mayúsculas y un carácter especial',
  errPasswordMismatch: 'Las contraseñas no coinciden',
  errCurrentPassword: 'La contraseña actual no es correcta',
  errTooLong: 'Este valor es demasiado largo',
  errOrganization: 'Se produjo un error al crear tu organización',
};

const ko: Messages = {
  appName: '계정 센터',
  language: '언어',
  signInTitle: '로그인',
  signInSubtitle: '계속하려면 로그인하세요.',
  signInSubtitleClient: '{client}(으)로 계속하려면 로그인하세요.',
  login: '이메일 또는 사용자 이름',
  password: '비밀번호',
  signInButton: '로그인',
  noAccount: '계정이 없으신가요?',
  createAccountLink: '계정 만들기',
  signUpTitle: '계정 만들기',
  signUpSubtitle: '하나의 계정으로 플랫폼의 모든 앱을 이용할 수 있습니다.',
  firstName: '이름',
  lastName: '성',
  username: '사용자 이름',
  email: '이메일',
  passwordHint: '소문자, 대문자, 특수 문자를 포함해 8자 이상',
  signUpButton: '계정 만들기',
  haveAccount: '이미 계정이 있으신가요?',
  signInLink: '로그인',
  organizationTitle: '조직 만들기',
  organizationSubtitle: '조직에서 증명서를 발급하고 검증합니다. 조직은 나중에 만들 수도 있습니다.',
  organizationName: '조직 이름',
  organizationDescription: '설명(선택 사항)',
  organizationButton: '조직 만들기',
  skip: '나중에 하기',
  cancel: '취소',
  accountTitle: '내 계정',
  signedInAs: '로그인한 계정',
  yourOrganizations: '내 조직',
  noOrganizations: '아직 소속된 조직이 없습니다.',
  createOrganizationLink: '조직 만들기',
  changePasswordLink: '비밀번호 변경',
  signOutLink: '로그아웃',
  passwordTitle: '비밀번호 변경',
  passwordSubtitle: '계정에 사용할 새 비밀번호를 설정하세요.',
  currentPassword: '현재 비밀번호',
  newPassword: '새 비밀번호',
  confirmPassword: '새 비밀번호 확인',
  passwordButton: '비밀번호 변경',
  passwordChanged: '비밀번호가 변경되었습니다.',
  otherDevicesSignedOut: '다른 기기에서는 로그아웃되었습니다. 새 비밀번호로 다시 로그인하세요.',
  backToAccount: '내 계정으로 돌아가기',
  logoutTitle: '로그아웃하시겠습니까?',
  logoutText:
    '이 기기에서 계정 센터에서 로그아웃됩니다. 이 기기에서 계정 센터로 로그인한 앱(콘솔 등)에서도 로그아웃됩니다. 다른 기기는 로그인 상태로 유지됩니다.',
  logoutButton: '로그아웃',
  stayButton: '로그인 상태 유지',
  signedOutTitle: '로그아웃되었습니다',
  signedOutText: '계정에서 로그아웃되었습니다.',
  signInAgain: '다시 로그인',
  errorTitle: '문제가 발생했습니다',
  errorText: '페이지를 표시할 수 없습니다. 다시 시도해 주세요.',
  expiredTitle: '페이지가 만료되었습니다',
  expiredText: '로그인 요청이 만료되었거나 이미 완료되었습니다. 앱으로 돌아가 처음부터 다시 시도해 주세요.',
  forbiddenTitle: '양식이 만료되었습니다',
  forbiddenText: '보안을 위해 양식을 보낼 수 없었습니다. 이전 페이지로 돌아가 새로고침한 후 다시 시도해 주세요.',
  notFoundTitle: '페이지를 찾을 수 없습니다',
  notFoundText: '찾으시는 페이지가 존재하지 않습니다.',
  goToAccount: '내 계정으로 이동',
  errInvalidCredentials: '이메일/사용자 이름 또는 비밀번호가 올바르지 않습니다',
  errTooManyAttempts: '로그인 실패 횟수가 너무 많습니다. 몇 분 후에 다시 시도해 주세요.',
  errRequired: '필수 입력 항목입니다',
  errEmail: '올바른 이메일 주소를 입력해 주세요',
  errUsername: '영문자, 숫자, 마침표, 하이픈, 밑줄을 사용해 3~32자로 입력해 주세요',
  errUsernameTaken: '이미 사용 중인 사용자 이름입니다',
  errEmailTaken: '이 이메일로 가입된 계정이 이미 있습니다',
  errPasswordWeak: '비밀번호는 소문자, 대문자, 특수 문자를 포함해 8자 이상이어야 합니다',
  errPasswordMismatch: '비밀번호가 일치하지 않습니다',
  errCurrentPassword: '현재 비밀번호가 올바르지 않습니다',
  errTooLong: '입력한 값이 너무 깁니다',
  errOrganization: '조직을 만드는 중에 오류가 발생했습니다',
};

const MESSAGES: Record<Locale, Messages> = { en, ja, es, ko };

export type Translate = (key: MessageKey, values?: Record<string, string>) => string;

export function translator(locale: Locale): Translate {
  const messages = MESSAGES[locale];
  return (key, values) => {
    const text = messages[key];
    return values ? text.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '') : text;
  };
}

/**
 * Accepts only a BCP 47-shaped tag and maps it to a supported language; anything else (including values
 * that look like script injection, spec §5) is ignored.
 */
export function parseLocale(value: string | undefined | null): Locale | undefined {
  if (!value || value.length > 35 || !/^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*$/.test(value)) return undefined;
  const base = value.slice(0, 2).toLowerCase();
  return (LOCALES as readonly string[]).includes(base) ? (base as Locale) : undefined;
}

/** Accept-Language (RFC 9110 §12.5.4), ordered by q-value. */
export function localeFromAcceptLanguage(header: string | undefined): Locale | undefined {
  if (!header) return undefined;
  const ranges = header
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((r) => r.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const range of ranges) {
    const locale = parseLocale(range.tag);
    if (locale) return locale;
  }
  return undefined;
}
