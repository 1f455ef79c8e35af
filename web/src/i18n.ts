import { createI18n } from 'vue-i18n'
import de from './locales/de'
import en from './locales/en'

export const LOCALES = ['de', 'en'] as const
export type Locale = (typeof LOCALES)[number]

function initial(): Locale {
  const saved = typeof localStorage !== 'undefined' ? localStorage.getItem('worldmem.locale') : null
  return saved === 'en' ? 'en' : 'de'
}

export function makeI18n(locale: Locale = initial()) {
  return createI18n({ legacy: false, locale, fallbackLocale: false, missingWarn: true, messages: { de, en } })
}
