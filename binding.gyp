{
  "targets": [
    {
      "target_name": "gpmcmc_native",
      "sources": ["native/gpmcmc_native.cc"],
      "dependencies": ["<!(node -p \"require('node-addon-api').targets\"):node_addon_api_except"],
      "defines": ["NODE_API_SWALLOW_UNTHROWABLE_EXCEPTIONS"],
      "cflags_cc": ["-O2", "-std=c++17", "-ffp-contract=off"],
      "libraries": ["-lopenblas"]
    }
  ]
}
