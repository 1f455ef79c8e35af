// Hash routes (the server needs no fallback); the as-of instant travels in the query (?at=&axis=).
import { computed, ref, watch } from 'vue'
import { createRouter, createWebHashHistory, useRoute, useRouter, type RouteLocationRaw } from 'vue-router'
import SearchPage from './pages/SearchPage.vue'
import LoginPage from './pages/LoginPage.vue'

export function makeRouter(isLoggedIn: () => boolean) {
  const router = createRouter({
    history: createWebHashHistory(),
    routes: [
      { path: '/login', name: 'login', component: LoginPage },
      { path: '/', name: 'search', component: SearchPage },
      { path: '/entity/:ref', name: 'entity', component: () => import('./pages/EntityPage.vue') },
      { path: '/entity/:ref/graph', name: 'graph', component: () => import('./pages/GraphPage.vue') },
      { path: '/trace', name: 'trace', component: () => import('./pages/TracePage.vue') },
      { path: '/explore', name: 'explore', component: () => import('./pages/ExplorePage.vue') },
      { path: '/console', name: 'console', component: () => import('./pages/ConsolePage.vue') },
      { path: '/contacts', name: 'contacts', component: () => import('./pages/ContactsPage.vue') },
    ],
  })
  router.beforeEach((to) => {
    if (to.name !== 'login' && !isLoggedIn()) return { name: 'login', query: { next: to.fullPath } }
    return true
  })
  return router
}

/** A link that keeps the current instant (at, axis). */
export function keepTime(to: { name: string; params?: Record<string, string>; query?: Record<string, string> },
  current: Record<string, unknown>): RouteLocationRaw {
  const query: Record<string, string> = { ...(to.query ?? {}) }
  if (typeof current.at === 'string') query.at = current.at
  if (current.axis === 'system') query.axis = 'system'
  return { ...to, query }
}

/** A text kept in the URL's query under `key` (a page's search box): `value` is the URL's, `text` the input's,
 *  `submit` puts the input (trimmed; empty removes it) into the URL. */
export function useQueryText(key: string) {
  const route = useRoute()
  const router = useRouter()
  const value = computed(() => {
    const v = route.query[key]
    return typeof v === 'string' ? v : ''
  })
  const text = ref(value.value)
  watch(value, (v) => (text.value = v))
  function submit() {
    router.replace({ query: { ...route.query, [key]: text.value.trim() || undefined } })
  }
  return { value, text, submit }
}
