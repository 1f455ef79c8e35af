-- After the vector list: sorting allowed again for the transaction's other statements (finder_set_search).
SELECT set_config('enable_sort', 'on', true)
