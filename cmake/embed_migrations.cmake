# Numbered SQL migrations (NNNN_*.sql) compiled into a binary, so that no SQL file is read at run
# time: pitlinkd's journal schema (schema/) and pitlink-ship's floor schema (schema/floor/).
# embed_migrations(DIR TEMPLATE OUTPUT): each file of DIR becomes an entry
#   {number, "NNNN_name.sql", R"pitlink_sql(...)pitlink_sql"},
# in @migration_entries@ of TEMPLATE, configured into OUTPUT. An edited migration regenerates
# OUTPUT, not only an added or removed one.
function(embed_migrations dir template output)
  file(GLOB migrations CONFIGURE_DEPENDS ${dir}/[0-9][0-9][0-9][0-9]_*.sql)
  list(SORT migrations)
  set(migration_entries "")
  foreach(sql_file IN LISTS migrations)
    get_filename_component(name ${sql_file} NAME)
    string(SUBSTRING ${name} 0 4 number)
    math(EXPR number "${number}")
    file(READ ${sql_file} sql)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${sql_file})
    string(APPEND migration_entries "    {${number}, \"${name}\", R\"pitlink_sql(${sql})pitlink_sql\"},\n")
  endforeach()
  configure_file(${template} ${output} @ONLY)
endfunction()
