pytest_plugins = ['framework.testing.pytest_plugin', 'pytester']
