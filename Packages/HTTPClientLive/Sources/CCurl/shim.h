// libcurl's setopt and getinfo are variadic, which Swift cannot call: these wrappers give
// each argument type its own function.
#include <curl/curl.h>

typedef size_t (*fetcher_curl_data_callback)(char *, size_t, size_t, void *);

static inline CURLcode fetcher_curl_setopt_long(CURL *handle, CURLoption option, long value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode fetcher_curl_setopt_off(CURL *handle, CURLoption option,
                                               curl_off_t value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode fetcher_curl_setopt_string(CURL *handle, CURLoption option,
                                                  const char *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode fetcher_curl_setopt_pointer(CURL *handle, CURLoption option,
                                                   void *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode fetcher_curl_setopt_data_callback(CURL *handle, CURLoption option,
                                                         fetcher_curl_data_callback value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode fetcher_curl_setopt_xferinfo(CURL *handle,
                                                    curl_xferinfo_callback value) {
  return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, value);
}

static inline CURLcode fetcher_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
  return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode fetcher_curl_getinfo_slist(CURL *handle, CURLINFO info,
                                                  struct curl_slist **value) {
  return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode fetcher_curl_getinfo_string(CURL *handle, CURLINFO info,
                                                   char **value) {
  return curl_easy_getinfo(handle, info, value);
}

static inline CURLSHcode fetcher_curl_share_setopt_long(CURLSH *share, CURLSHoption option,
                                                        long value) {
  return curl_share_setopt(share, option, value);
}

static inline CURLSHcode fetcher_curl_share_setopt_lock(CURLSH *share,
                                                        curl_lock_function value) {
  return curl_share_setopt(share, CURLSHOPT_LOCKFUNC, value);
}

static inline CURLSHcode fetcher_curl_share_setopt_unlock(CURLSH *share,
                                                          curl_unlock_function value) {
  return curl_share_setopt(share, CURLSHOPT_UNLOCKFUNC, value);
}

static inline CURLSHcode fetcher_curl_share_setopt_pointer(CURLSH *share, CURLSHoption option,
                                                           void *value) {
  return curl_share_setopt(share, option, value);
}
