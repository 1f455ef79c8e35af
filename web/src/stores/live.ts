// The latest commit announced by the memoryCommitted subscription; pages watch `tick` and refetch.
import { defineStore } from 'pinia'
import { ref } from 'vue'

export interface Commit { entityIds: string[]; committed: number; pending: number; summary: string }

export const useLive = defineStore('live', () => {
  const tick = ref(0)
  const last = ref<Commit | null>(null)
  function announce(c: Commit) {
    last.value = c
    tick.value += 1
  }
  function touches(ids: Iterable<string>): boolean {
    const changed = new Set(last.value?.entityIds ?? [])
    for (const id of ids) if (changed.has(id)) return true
    return false
  }
  return { tick, last, announce, touches }
})
