// The owner token, kept in session storage (gone when the tab closes); nothing is shown without one.
import { defineStore } from 'pinia'
import { ref } from 'vue'

const KEY = 'worldmem.token'

export const useSession = defineStore('session', () => {
  const token = ref<string | null>(sessionStorage.getItem(KEY))
  function login(value: string) {
    token.value = value.trim()
    sessionStorage.setItem(KEY, token.value)
  }
  function logout() {
    token.value = null
    sessionStorage.removeItem(KEY)
  }
  return { token, login, logout }
})
