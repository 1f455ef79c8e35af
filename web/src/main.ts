import { createApp } from 'vue'
import { createPinia } from 'pinia'
import urql from '@urql/vue'
import App from './App.vue'
import { makeI18n } from './i18n'
import { makeRouter } from './router'
import { makeClient } from './client'
import { useSession } from './stores/session'
import './style.css'

const app = createApp(App)
const pinia = createPinia()
app.use(pinia)
const session = useSession(pinia)
app.use(makeI18n())
app.use(makeRouter(() => !!session.token))
app.use(urql, makeClient(() => session.token))
app.mount('#app')
