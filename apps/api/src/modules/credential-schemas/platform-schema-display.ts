/**
 * How the platform's own schemas read in each console language, for what wallets show: the credential
 * type's name and its claims' labels in the issuer and type metadata. Organization schemas carry the
 * names their authors typed (one language), shown as they are.
 */
import type { ClaimLabel, Language } from '@cp/contracts';

export type DisplayLocale = Language;

const names: Record<string, Record<DisplayLocale, string>> = {
  kyc: { en: 'KYC', ja: '本人確認（KYC）', es: 'KYC (verificación de identidad)', ko: '본인 확인(KYC)' },
  'educational-certificate': {
    en: 'Educational Certificate',
    ja: '学歴証明書',
    es: 'Certificado académico',
    ko: '학력 증명서',
  },
  'work-certificate': { en: 'Work Certificate', ja: '在職証明書', es: 'Certificado laboral', ko: '재직 증명서' },
};

const labels: Record<string, Record<DisplayLocale, string>> = {
  first_name: { en: 'First name', ja: '名', es: 'Nombre', ko: '이름' },
  last_name: { en: 'Last name', ja: '姓', es: 'Apellidos', ko: '성' },
  gender: { en: 'Gender', ja: '性別', es: 'Género', ko: '성별' },
  id_number: { en: 'ID number', ja: 'ID番号', es: 'Número de identificación', ko: '신분증 번호' },
  date_of_birth: { en: 'Date of birth', ja: '生年月日', es: 'Fecha de nacimiento', ko: '생년월일' },
  document_type: { en: 'Document type', ja: '書類の種類', es: 'Tipo de documento', ko: '문서 종류' },
  document_number: { en: 'Document number', ja: '書類番号', es: 'Número de documento', ko: '문서 번호' },
  issued_date: { en: 'Issue date', ja: '発行日', es: 'Fecha de expedición', ko: '발급일' },
  certificate_name: { en: 'Certificate name', ja: '証明書名', es: 'Nombre del certificado', ko: '증명서 이름' },
  field_of_study: { en: 'Field of study', ja: '専攻分野', es: 'Área de estudio', ko: '전공 분야' },
  start_date: { en: 'Start date', ja: '開始日', es: 'Fecha de inicio', ko: '시작일' },
  end_date: { en: 'End date', ja: '終了日', es: 'Fecha de finalización', ko: '종료일' },
  grade: { en: 'Grade', ja: '成績', es: 'Calificación', ko: '성적' },
  description: { en: 'Description', ja: '説明', es: 'Descripción', ko: '설명' },
  expiration_date: { en: 'Expiration date', ja: '有効期限', es: 'Fecha de caducidad', ko: '만료일' },
  job_title: { en: 'Job title', ja: '職位', es: 'Cargo', ko: '직책' },
  location: { en: 'Location', ja: '勤務地', es: 'Ubicación', ko: '근무지' },
  employment_type: { en: 'Employment type', ja: '雇用形態', es: 'Tipo de empleo', ko: '고용 형태' },
};

/**
 * A claim name as people read it: `clearance_level` → "Clearance level", `employeeID` → "Employee ID". Words are
 * split at `_`, `-`, `.` and camelCase humps; acronyms stay capitals; only the first word is capitalized.
 */
export function humanizeClaimName(name: string): string {
  const words = name
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .split(/[\s_.-]+/)
    .filter(Boolean)
    .map((word) => (word.length > 1 && word === word.toUpperCase() ? word : word.toLowerCase()));
  if (words.length === 0) return name;
  const [first, ...rest] = words;
  return [first!.charAt(0).toUpperCase() + first!.slice(1), ...rest].join(' ');
}

/** The schema's display name in `locale`: translated for platform schemas, as typed otherwise. */
export function schemaDisplayName(
  schema: { slug: string; name: string; organizationId: string | null },
  locale: DisplayLocale,
) {
  return (schema.organizationId === null ? names[schema.slug]?.[locale] : undefined) ?? schema.name;
}

/** A claim's label in `locale`: translated for platform schemas, the humanized attribute name otherwise. */
export function attributeDisplayLabel(
  schema: { organizationId: string | null },
  attributeName: string,
  locale: DisplayLocale,
) {
  return (
    (schema.organizationId === null ? labels[attributeName]?.[locale] : undefined) ?? humanizeClaimName(attributeName)
  );
}

/**
 * A claim with its label in every display language, for the holder pages (they show the one of the page's
 * language). `schema` null: a claim of another issuer's credential type, known only by its name.
 */
export function claimLabel(schema: { organizationId: string | null } | null, name: string): ClaimLabel {
  const label = (locale: DisplayLocale) =>
    schema ? attributeDisplayLabel(schema, name, locale) : humanizeClaimName(name);
  return { name, label: { en: label('en'), ja: label('ja'), es: label('es'), ko: label('ko') } };
}
